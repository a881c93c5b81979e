package apiclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// MaxLinkedWallets is how many internal wallets the gateway lets a user link
// to the card; screens say so before a sixth link is even sent.
const MaxLinkedWallets = 5

// Money amounts use Decimal (transactions.go): the gateway's decimal text,
// never a float.

// InternalWallet is a custodial wallet (GET /v1/wallet/internal); AddressID
// is what link, unlink and history take.
type InternalWallet struct {
	ID          string  `json:"id"`
	Balance     Decimal `json:"balance"`
	Currency    string  `json:"currency"`
	Address     string  `json:"address"`
	AddressMemo *string `json:"addressMemo"`
	AddressID   string  `json:"addressId"`
	Type        string  `json:"type"`
	Extra       Extra   `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// LinkedWallet is an internal wallet linked to the card as a payment source
// (GET /v1/wallet/internal/card_linked); priority 1 is charged first.
type LinkedWallet struct {
	ID       string `json:"id"`
	Address  string `json:"address"`
	Currency string `json:"currency"`
	Network  string `json:"network"`
	Priority int    `json:"priority"`
	Extra    Extra  `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// ExternalWallet is a registered non-custodial wallet (GET
// /v1/wallet/external): the card may spend up to the smaller of balance and
// allowance, and withdrawals are sent to it.
type ExternalWallet struct {
	Address   string  `json:"address"`
	Currency  string  `json:"currency"`
	Balance   Decimal `json:"balance"`
	Allowance Decimal `json:"allowance"`
	Network   string  `json:"network"`
	Extra     Extra   `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// Spendable is min(balance, allowance), what the card can actually draw; ""
// when either is unreadable.
func (w ExternalWallet) Spendable() Decimal {
	c, err := CompareDecimal(string(w.Balance), string(w.Allowance))
	if err != nil {
		return ""
	}
	if c <= 0 {
		return w.Balance
	}
	return w.Allowance
}

// CreditWallet is the user's credit wallet (GET /v1/wallet/credit); only a
// wallet with IsWithdrawable may be withdrawn from.
type CreditWallet struct {
	ID             string  `json:"id"`
	Balance        Decimal `json:"balance"`
	Currency       string  `json:"currency"`
	IsWithdrawable bool    `json:"isWithdrawable"`
	Type           string  `json:"type"`
	Extra          Extra   `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// WithdrawEstimation is the network fee of a withdrawal, in wei, ETH and
// USDC (GET /v1/wallet/credit/withdraw-estimation). The USDC figure is what
// the received amount is reduced by.
type WithdrawEstimation struct {
	Wei   Decimal `json:"wei"`
	ETH   Decimal `json:"eth"`
	USDC  Decimal `json:"usdc"`
	Extra Extra   `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// WithdrawResult is the answer to a withdrawal: the on-chain transaction.
type WithdrawResult struct {
	TxHash string `json:"txHash"`
	Extra  Extra  `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// HistoryItem is one movement of a wallet (GET /v1/wallet/history).
type HistoryItem struct {
	Name     string  `json:"name"`
	Amount   Decimal `json:"amount"`
	Currency string  `json:"currency"`
	Sign     string  `json:"sign"`
	Date     string  `json:"date"`
	Extra    Extra   `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// HistoryPageSize is how many items one history page holds; a shorter page
// is the last.
const HistoryPageSize = 10

// HistoryQuery selects one page (from 0) of one wallet's history.
type HistoryQuery struct {
	WalletID       string
	WalletType     string // "internal" or "credit"
	WalletCurrency string
	Page           int
}

// UnmarshalJSON reads a linked wallet tolerantly (see decodeWithExtra); a
// priority sent as a numeric string is accepted. Written by hand, so
// tolerantgen writes only its MarshalJSON.
func (w *LinkedWallet) UnmarshalJSON(data []byte) error {
	type plain LinkedWallet
	var p plain
	if err := decodeWithExtra(data, &p, &p.Extra); err != nil {
		return err
	}
	if raw, ok := p.Extra["priority"]; ok {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if n, err := strconv.Atoi(strings.TrimSpace(s)); err == nil {
				p.Priority = n
				delete(p.Extra, "priority")
			}
		}
	}
	*w = LinkedWallet(p)
	return nil
}

// InternalWallets lists the custodial wallets with their balances.
func (c *Client) InternalWallets(ctx context.Context) ([]InternalWallet, error) {
	var out []InternalWallet
	err := c.do(ctx, request{op: "InternalWallets", method: http.MethodGet,
		path: "/v1/wallet/internal", family: familyUser, out: &out})
	return out, err
}

// LinkedWallets lists the wallets linked to the card, in priority order.
func (c *Client) LinkedWallets(ctx context.Context) ([]LinkedWallet, error) {
	out, err := answer[[]LinkedWallet](ctx, c, request{op: "LinkedWallets", method: http.MethodGet,
		path: "/v1/wallet/internal/card_linked", family: familyUser})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b LinkedWallet) int { return a.Priority - b.Priority })
	return out, nil
}

type addressIDBody struct {
	AddressID string `json:"addressId"`
}

// LinkWallet links an internal wallet (by its addressId) to the card as the
// lowest-priority payment source. A sixth link is refused by the gateway.
func (c *Client) LinkWallet(ctx context.Context, addressID string) error {
	return c.doSuccess(ctx, LinkWalletCall(addressID).r)
}

// LinkWalletCall declares the request LinkWallet sends.
func LinkWalletCall(addressID string) Call {
	return Call{request{op: "LinkWallet", method: http.MethodPost,
		path: "/v1/wallet/internal/card_linked", body: addressIDBody{addressID}, family: familyUser}}
}

// UnlinkWallet removes an internal wallet from the card's payment sources.
func (c *Client) UnlinkWallet(ctx context.Context, addressID string) error {
	return c.doSuccess(ctx, UnlinkWalletCall(addressID).r)
}

// UnlinkWalletCall declares the request UnlinkWallet sends.
func UnlinkWalletCall(addressID string) Call {
	return Call{request{op: "UnlinkWallet", method: http.MethodDelete,
		path: "/v1/wallet/internal/card_linked", body: addressIDBody{addressID}, family: familyUser}}
}

// ReorderLinkedWallets changes the priority order of the linked wallets.
// The interface has no operation for it, so it uses the documented ones: it
// unlinks the wallets from the first position that changes to the end and
// links them again in the wanted order (a new link goes last). current and
// wanted are addressIds, highest priority first, and must hold the same
// wallets. When a step fails it still tries to link back every wallet it
// unlinked, then returns the first error; re-read the list afterwards.
func (c *Client) ReorderLinkedWallets(ctx context.Context, current, wanted []string) error {
	k, err := reorderFrom(current, wanted)
	if err != nil || k == len(current) {
		return err
	}
	var unlinked []string
	var firstErr error
	for _, id := range current[k:] {
		if err := c.UnlinkWallet(ctx, id); err != nil {
			firstErr = err
			break
		}
		unlinked = append(unlinked, id)
	}
	for _, id := range wanted[k:] {
		if !slices.Contains(unlinked, id) {
			continue // never unlinked: still linked, in its old place
		}
		// Relink even after a failure (with a fresh context if ours is
		// gone), so a wallet is not left off the card.
		lctx := ctx
		if ctx.Err() != nil {
			lctx = context.WithoutCancel(ctx)
		}
		if err := c.LinkWallet(lctx, id); err != nil && firstErr == nil {
			firstErr = err
		}
	}
	return firstErr
}

// ReorderLinkedWalletsCalls declares the requests ReorderLinkedWallets
// sends when every step succeeds: an unlink for each wallet from the first
// place that changes, then a link for each in the wanted order. None when
// the order is the same or the lists do not hold the same wallets.
func ReorderLinkedWalletsCalls(current, wanted []string) []Call {
	k, err := reorderFrom(current, wanted)
	if err != nil {
		return nil
	}
	var calls []Call
	for _, id := range current[k:] {
		calls = append(calls, UnlinkWalletCall(id))
	}
	for _, id := range wanted[k:] {
		calls = append(calls, LinkWalletCall(id))
	}
	return calls
}

// reorderFrom is the first place where wanted differs from current
// (len(current) when nowhere), or an error when they do not hold the
// same wallets.
func reorderFrom(current, wanted []string) (int, error) {
	a, b := slices.Clone(current), slices.Clone(wanted)
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		return 0, &Error{Op: "ReorderLinkedWallets", Message: "the new order must hold the same wallets"}
	}
	k := 0
	for k < len(current) && current[k] == wanted[k] {
		k++
	}
	return k, nil
}

// ExternalWallets lists the registered external wallets.
func (c *Client) ExternalWallets(ctx context.Context) ([]ExternalWallet, error) {
	var out []ExternalWallet
	err := c.do(ctx, request{op: "ExternalWallets", method: http.MethodGet,
		path: "/v1/wallet/external", family: familyUser, out: &out})
	return out, err
}

// CreditWallet fetches the credit wallet. Before the first credit the
// gateway answers 404: check IsNotFound and show "no credit yet".
func (c *Client) CreditWallet(ctx context.Context) (CreditWallet, error) {
	return answer[CreditWallet](ctx, c, request{op: "CreditWallet", method: http.MethodGet,
		path: "/v1/wallet/credit", family: familyUser})
}

// WithdrawEstimation fetches the current network fee of a withdrawal.
func (c *Client) WithdrawEstimation(ctx context.Context) (WithdrawEstimation, error) {
	return c.WithdrawEstimationFor(ctx, "")
}

// WithdrawEstimationFor fetches the estimation of a withdrawal of amount
// (sent as the query's amount; "" for none). The interface does not show
// the request's parameters: a gateway that estimates for the whole balance
// ignores it, one that estimates for an amount answers for this one.
func (c *Client) WithdrawEstimationFor(ctx context.Context, amount string) (WithdrawEstimation, error) {
	var q url.Values
	if amount = strings.TrimSpace(amount); amount != "" {
		q = url.Values{"amount": {amount}}
	}
	return answer[WithdrawEstimation](ctx, c, request{op: "WithdrawEstimation", method: http.MethodGet,
		path: "/v1/wallet/credit/withdraw-estimation", query: q, family: familyUser})
}

// Withdraw sends amount (a decimal USDC string, checked with
// ValidDecimalAmount first) from the credit wallet to the registered
// external wallet, and returns the transaction. It is never retried.
func (c *Client) Withdraw(ctx context.Context, amount string) (WithdrawResult, error) {
	if err := ValidDecimalAmount(amount); err != nil {
		return WithdrawResult{}, &Error{Op: "Withdraw", Message: "invalid amount: " + err.Error()}
	}
	out, err := answer[WithdrawResult](ctx, c, WithdrawCall(amount).r)
	if err != nil {
		return WithdrawResult{}, err
	}
	if out.TxHash == "" {
		return out, &Error{Op: "Withdraw", Status: http.StatusOK, Message: "the gateway did not return a transaction hash"}
	}
	return out, nil
}

// WithdrawCall declares the request Withdraw sends.
func WithdrawCall(amount string) Call {
	return Call{request{op: "Withdraw", method: http.MethodPost,
		path: "/v1/wallet/credit/withdraw", body: struct {
			Amount string `json:"amount"`
		}{amount}, family: familyUser, us: usQuery}}
}

// WalletHistory fetches one page of a wallet's history (HistoryPageSize
// items; fewer on the last page).
func (c *Client) WalletHistory(ctx context.Context, q HistoryQuery) ([]HistoryItem, error) {
	v := url.Values{}
	v.Set("walletId", q.WalletID)
	if q.WalletType != "" {
		v.Set("walletType", q.WalletType)
	}
	if q.WalletCurrency != "" {
		v.Set("walletCurrency", q.WalletCurrency)
	}
	v.Set("page", strconv.Itoa(max(q.Page, 0)))
	var out []HistoryItem
	err := c.do(ctx, request{op: "WalletHistory", method: http.MethodGet,
		path: "/v1/wallet/history", query: v, family: familyUser, out: &out})
	return out, err
}
