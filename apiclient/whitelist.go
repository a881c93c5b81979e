package apiclient

import (
	"context"
	"net/http"
	"net/url"
	"regexp"
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

// UnmarshalJSON reads an entry tolerantly: unknown members land in Extra.
func (e *WhitelistEntry) UnmarshalJSON(data []byte) error {
	return decodeWithExtra(data, e, &e.Extra)
}

// MarshalJSON writes the typed fields and then Extra.
func (e WhitelistEntry) MarshalJSON() ([]byte, error) {
	type plain WhitelistEntry
	return encodeWithExtra(plain(e), e.Extra)
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
	currency = strings.ToLower(strings.TrimSpace(currency))
	if currency == "" {
		return nil, &Error{Op: "Whitelist", Message: "a currency is required"}
	}
	var out []WhitelistEntry
	err := c.do(ctx, request{op: "Whitelist", method: http.MethodGet, path: "/v1/wallet/whitelist",
		query: url.Values{"currency": {currency}}, family: famUser, us: usQuery, out: &out})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AddWhitelist adds several entries in one request. A 422 names the entry
// it concerns; WhitelistErrorEntry finds which.
func (c *Client) AddWhitelist(ctx context.Context, entries []NewWhitelistEntry) error {
	if len(entries) == 0 {
		return &Error{Op: "AddWhitelist", Message: "no entries to add"}
	}
	return c.doSuccess(ctx, request{op: "AddWhitelist", method: http.MethodPost, path: "/v1/wallet/whitelist",
		body: struct {
			Wallets []NewWhitelistEntry `json:"wallets"`
		}{entries}, family: famUser, us: usQuery})
}

// DeleteWhitelist removes entries by id in one request.
func (c *Client) DeleteWhitelist(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return &Error{Op: "DeleteWhitelist", Message: "no entries to delete"}
	}
	return c.doSuccess(ctx, request{op: "DeleteWhitelist", method: http.MethodDelete, path: "/v1/wallet/whitelist",
		body: struct {
			WalletIDs []string `json:"walletIds"`
		}{ids}, family: famUser, us: usQuery})
}

var entryIndexRE = regexp.MustCompile(`wallets\[(\d+)\]`)

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
		if m := entryIndexRE.FindStringSubmatch(t); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}
