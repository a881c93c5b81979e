package apiclient

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// WhitelistEntry is an approved withdrawal address (GET /v1/wallet/whitelist).
type WhitelistEntry struct {
	ID                   string  `json:"id"`
	Name                 string  `json:"name"`
	BeneficiaryFirstName string  `json:"beneficiaryFirstName"`
	BeneficiaryLastName  string  `json:"beneficiaryLastName"`
	WalletAddress        string  `json:"walletAddress"`
	WalletMemo           *string `json:"walletMemo"`
	Currency             string  `json:"currency"`
	LastUsedAt           *string `json:"lastUsedAt"`
	CreatedAt            string  `json:"createdAt"`
	Extra                Extra   `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// NewWhitelistEntry is one entry of an add request; check it with
// ValidateWhitelistEntry before sending.
type NewWhitelistEntry struct {
	Currency             string `json:"currency"`
	Name                 string `json:"name"`
	BeneficiaryFirstName string `json:"beneficiaryFirstName"`
	BeneficiaryLastName  string `json:"beneficiaryLastName"`
	WalletAddress        string `json:"walletAddress"`
	WalletMemo           string `json:"walletMemo,omitempty"`
}

// Whitelist lists the approved addresses of one currency. The currency is
// required by the gateway (422 without it), so "" is refused here.
func (c *Client) Whitelist(ctx context.Context, currency string) ([]WhitelistEntry, error) {
	var batches [][]WhitelistEntry
	err := c.WhitelistBatches(ctx, currency, func(batch []WhitelistEntry) error {
		batches = append(batches, batch)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(batches) == 1 {
		return batches[0], nil
	}
	return slices.Concat(batches...), nil
}

// WhitelistBatchSize is how many entries WhitelistBatches hands over at a
// time (the last batch may hold fewer).
const WhitelistBatchSize = 1024

// WhitelistBatches lists the approved addresses of one currency as they
// arrive: fn gets each batch of WhitelistBatchSize entries as soon as it is
// decoded, while the rest of the answer is still being received, so a
// screen can show the first entries of a 100,000-entry list at once. fn
// runs on the caller's goroutine and may keep the batch (each is a fresh
// slice). An error fn returns stops the reading and is returned as it is;
// batches already handed over stay valid.
func (c *Client) WhitelistBatches(ctx context.Context, currency string, fn func(batch []WhitelistEntry) error) error {
	currency = strings.ToLower(strings.TrimSpace(currency))
	if currency == "" {
		return &Error{Op: "Whitelist", Message: "a currency is required"}
	}
	var stopped error // fn's own error, returned as it is
	read := func(body io.Reader) error {
		var batch []WhitelistEntry
		err := eachArrayElement(body, func(elem string) error {
			if batch == nil {
				batch = make([]WhitelistEntry, 0, WhitelistBatchSize)
			}
			batch = batch[:len(batch)+1]
			e := &batch[len(batch)-1]
			if err := decodeRecord(elem, e, &e.Extra); err != nil {
				return err
			}
			if len(batch) < WhitelistBatchSize {
				return nil
			}
			full := batch
			batch = nil
			stopped = fn(full)
			return stopped
		})
		if err == nil && len(batch) > 0 {
			stopped = fn(batch)
			err = stopped
		}
		return err
	}
	err := c.do(ctx, request{op: "Whitelist", method: http.MethodGet, path: "/v1/wallet/whitelist",
		query: url.Values{"currency": {currency}}, family: familyUser, us: usQuery, read: read})
	if stopped != nil {
		return stopped
	}
	return err
}

// AddWhitelist adds several entries in one request. A 422 names the entry
// it concerns; WhitelistErrorEntry finds which.
func (c *Client) AddWhitelist(ctx context.Context, entries []NewWhitelistEntry) error {
	if len(entries) == 0 {
		return &Error{Op: "AddWhitelist", Message: "no entries to add"}
	}
	return c.doSuccess(ctx, AddWhitelistCall(entries).r)
}

// AddWhitelistCall declares the request AddWhitelist sends.
func AddWhitelistCall(entries []NewWhitelistEntry) Call {
	return Call{request{op: "AddWhitelist", method: http.MethodPost, path: "/v1/wallet/whitelist",
		body: struct {
			Wallets []NewWhitelistEntry `json:"wallets"`
		}{entries}, family: familyUser, us: usQuery}}
}

// DeleteWhitelist removes entries by id in one request.
func (c *Client) DeleteWhitelist(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return &Error{Op: "DeleteWhitelist", Message: "no entries to delete"}
	}
	return c.doSuccess(ctx, DeleteWhitelistCall(ids).r)
}

// DeleteWhitelistCall declares the request DeleteWhitelist sends.
func DeleteWhitelistCall(ids []string) Call {
	return Call{request{op: "DeleteWhitelist", method: http.MethodDelete, path: "/v1/wallet/whitelist",
		body: struct {
			WalletIDs []string `json:"walletIds"`
		}{ids}, family: familyUser, us: usQuery}}
}

var entryIndexRE = lazyRegexp{pattern: `wallets\[(\d+)\]`}

// WhitelistErrorEntry finds which entry of an AddWhitelist request a
// gateway error concerns (from a field such as "wallets[1].walletAddress"
// or the message), so the form can mark it; ok is false when it names none.
func WhitelistErrorEntry(err error) (index int, ok bool) {
	var e *Error
	if !asError(err, &e) {
		return 0, false
	}
	texts := make([]string, 0, len(e.Fields)+len(e.Details)+1)
	for _, f := range e.Fields {
		texts = append(texts, f.Field, f.Message)
	}
	texts = append(texts, e.Message)
	texts = append(texts, e.Details...)
	for _, t := range texts {
		if m := entryIndexRE.get().FindStringSubmatch(t); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}
