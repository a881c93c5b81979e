package apiclient

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Transaction statuses and signs the gateway's reference names; other
// values are shown as they are.
const (
	TxConfirmed = "CONFIRMED"
	TxPending   = "PENDING"
	TxDeclined  = "DECLINED"
	TxReverted  = "REVERTED"

	TxDebit  = "DEBIT"
	TxCredit = "CREDIT"
)

// Transaction is one card transaction (GET /v1/card/transactions). The
// interface does not show its fields; these are the ones the gateway's
// reference names, and anything else is kept in Extra.
type Transaction struct {
	ID                   string  `json:"id"`
	DateTime             string  `json:"dateTime"`
	Sign                 string  `json:"sign"`
	MerchantNameLocation string  `json:"merchantNameLocation"`
	MCC                  string  `json:"mcc"`
	MCCCategory          string  `json:"mccCategory"`
	TransactionAmount    Decimal `json:"transactionAmount"`
	TransactionCurrency  string  `json:"transactionCurrency"`
	BillingAmount        Decimal `json:"billingAmount"`
	BillingCurrency      string  `json:"billingCurrency"`
	FeeAmount            Decimal `json:"feeAmount"`
	FeeCurrency          string  `json:"feeCurrency"`
	Status               string  `json:"status"`
	// DeclineReason is set for DECLINED transactions.
	DeclineReason *string `json:"declineReason"`
	Extra         Extra   `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// TransactionFilter is the query of the transaction list. DateFrom and
// DateTo (YYYY-MM-DD) go together; Page counts from 0.
type TransactionFilter struct {
	DateFrom, DateTo string
	SearchKey        string
	MCCCategories    []string
	Page             int
}

// Validate checks what the gateway would refuse, so forms can say it next
// to the field: both dates or neither, in YYYY-MM-DD, in order. A message
// names the other date as "the from date" or "the to date", never by its
// query parameter, so a form or a command can say it in its own words.
func (f TransactionFilter) Validate() []FieldError {
	var out []FieldError
	from, to := strings.TrimSpace(f.DateFrom), strings.TrimSpace(f.DateTo)
	var tf, tt time.Time
	var errF, errT error
	if from != "" {
		if tf, errF = time.Parse(time.DateOnly, from); errF != nil {
			out = append(out, FieldError{Field: "dateFrom", Message: "must be a date as YYYY-MM-DD"})
		}
	}
	if to != "" {
		if tt, errT = time.Parse(time.DateOnly, to); errT != nil {
			out = append(out, FieldError{Field: "dateTo", Message: "must be a date as YYYY-MM-DD"})
		}
	}
	switch {
	case from != "" && to == "":
		out = append(out, FieldError{Field: "dateTo", Message: "is required with the from date"})
	case to != "" && from == "":
		out = append(out, FieldError{Field: "dateFrom", Message: "is required with the to date"})
	case from != "" && errF == nil && errT == nil && tt.Before(tf):
		out = append(out, FieldError{Field: "dateTo", Message: "must not be before the from date"})
	}
	if f.Page < 0 {
		out = append(out, FieldError{Field: "page", Message: "must be 0 or more"})
	}
	return out
}

// query encodes the filter as the gateway's query parameters.
func (f TransactionFilter) query() url.Values {
	q := url.Values{}
	if f.DateFrom != "" || f.DateTo != "" {
		q.Set("dateFrom", strings.TrimSpace(f.DateFrom))
		q.Set("dateTo", strings.TrimSpace(f.DateTo))
	}
	if s := strings.TrimSpace(f.SearchKey); s != "" {
		q.Set("searchKey", s)
	}
	var cats []string
	for _, c := range f.MCCCategories {
		if c = strings.TrimSpace(c); c != "" {
			cats = append(cats, c)
		}
	}
	if len(cats) > 0 {
		q.Set("mccCategories", strings.Join(cats, ","))
	}
	q.Set("page", strconv.Itoa(max(f.Page, 0)))
	return q
}

// TransactionPage is one page of the list, newest first. Extra keeps what
// an object-shaped answer carried besides the list (totals, links).
type TransactionPage struct {
	Page         int
	Transactions []Transaction
	Extra        Extra
	// Digest is the SHA-256 of the list as the gateway sent it: a walk
	// knows a page it has seen before, whether its records have ids or not.
	Digest [sha256.Size]byte
}

// listMembers are the names under which an object-shaped answer may carry
// the list.
var listMembers = []string{"transactions", "data", "items", "content", "results"}

// Transactions fetches one page of card transactions. The interface does
// not show the answer's shape: a bare array and an object holding the array
// are both read. 404 when the user has no card.
func (c *Client) Transactions(ctx context.Context, f TransactionFilter) (TransactionPage, error) {
	var raw json.RawMessage
	err := c.do(ctx, request{
		op:     "Transactions",
		method: http.MethodGet,
		path:   "/v1/card/transactions",
		query:  f.query(),
		family: familyUser,
		out:    &raw,
	})
	if err != nil {
		return TransactionPage{}, err
	}
	page := TransactionPage{Page: max(f.Page, 0)}
	raw = bytes.TrimSpace(raw)
	bad := &Error{Op: "Transactions", Status: http.StatusOK, Message: "gateway answered with a transaction list this client cannot read"}
	switch {
	case len(raw) > 0 && raw[0] == '[':
		list, err := readTransactions(raw)
		if err != nil {
			bad.Err = err
			return TransactionPage{}, bad
		}
		page.Transactions, page.Digest = list, sha256.Sum256(raw)
	case len(raw) > 0 && raw[0] == '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(raw, &obj); err != nil {
			bad.Err = err
			return TransactionPage{}, bad
		}
		found := false
		for _, name := range listMembers {
			if v, ok := obj[name]; ok && len(bytes.TrimSpace(v)) > 0 && bytes.TrimSpace(v)[0] == '[' {
				list, err := readTransactions(v)
				if err != nil {
					bad.Err = err
					return TransactionPage{}, bad
				}
				page.Transactions, page.Digest = list, sha256.Sum256(v)
				delete(obj, name)
				found = true
				break
			}
		}
		if !found {
			bad.Err = errors.New("no list member in the object")
			return TransactionPage{}, bad
		}
		if len(obj) > 0 {
			page.Extra = Extra(obj)
		}
	default:
		return TransactionPage{}, bad
	}
	return page, nil
}

// readTransactions decodes a JSON array of transactions; an element that
// is not an object is skipped rather than failing the page.
func readTransactions(raw json.RawMessage) ([]Transaction, error) {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, err
	}
	out := make([]Transaction, 0, len(items))
	for _, it := range items {
		var t Transaction
		if json.Unmarshal(it, &t) == nil {
			out = append(out, t)
		}
	}
	return out, nil
}
