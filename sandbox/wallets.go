package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Wallet rules the interface leaves open, as the sandbox plays them:
//   - link: POST answers 201 {success:true} and puts the wallet last in
//     priority; the sixth answers 400 "A maximum of 5 wallets can be linked".
//     There is no priority endpoint: clients reorder by unlinking and
//     linking again.
//   - withdrawal: amount is a decimal USDC string with at most 6 decimals.
//     The fee is taken from the amount (received = amount - fee), so the
//     balance must cover the amount only and the whole balance can be
//     withdrawn; the balance goes down by the amount.
//     The withdrawal stays in progress for withdrawalSettle on the sandbox
//     clock, during which a second one is refused with 409.
//   - failures: 404 no credit wallet, 422 invalid amount, 403 withdrawal not
//     allowed, 400 no external wallet, 409 in progress, 400 insufficient
//     balance.

// maxLinked is the interface's limit of card-linked wallets.
const maxLinked = 5

// withdrawalSettle is how long a withdrawal is "in progress".
const withdrawalSettle = 5 * time.Second

// withdrawFeeMicros is the network fee, in micro-USDC (0.45 USDC), and the
// same fee in wei and ETH for the estimation.
const (
	withdrawFeeMicros = 450_000
	withdrawFeeWei    = "150000000000000"
	withdrawFeeETH    = "0.00015"
)

type internalJSON struct {
	ID          string  `json:"id"`
	Balance     string  `json:"balance"`
	Currency    string  `json:"currency"`
	Address     string  `json:"address"`
	AddressMemo *string `json:"addressMemo"`
	AddressID   string  `json:"addressId"`
	Type        string  `json:"type"`
}

type linkedJSON struct {
	ID       string `json:"id"`
	Address  string `json:"address"`
	Currency string `json:"currency"`
	Network  string `json:"network"`
	Priority int    `json:"priority"`
}

type externalJSON struct {
	Address   string `json:"address"`
	Currency  string `json:"currency"`
	Balance   string `json:"balance"`
	Allowance string `json:"allowance"`
	Network   string `json:"network"`
}

type creditJSON struct {
	ID             string `json:"id"`
	Balance        string `json:"balance"`
	Currency       string `json:"currency"`
	IsWithdrawable bool   `json:"isWithdrawable"`
	Type           string `json:"type"`
}

// walletInternal: GET /v1/wallet/internal.
func (s *Server) walletInternal(c *call) {
	s.mu.Lock()
	ws := walletsOf(c.user)
	if s.opts.AltShapes {
		alt := altInternalWallets(ws.internal)
		s.mu.Unlock()
		c.json(http.StatusOK, alt)
		return
	}
	out := convertAll(ws.internal, func(w *internalWallet) internalJSON {
		return internalJSON{w.ID, w.Balance, w.Currency, w.Address, w.Memo, w.AddressID, "internal"}
	})
	s.mu.Unlock()
	c.json(http.StatusOK, out)
}

// walletLinked: GET /v1/wallet/internal/card_linked, in priority order.
func (s *Server) walletLinked(c *call) {
	s.mu.Lock()
	ws := walletsOf(c.user)
	if s.opts.AltShapes {
		alt := altLinkedWallets(ws)
		s.mu.Unlock()
		c.json(http.StatusOK, alt)
		return
	}
	out := make([]linkedJSON, 0, len(ws.linked))
	for i, id := range ws.linked {
		if w := ws.byID(id); w != nil {
			out = append(out, linkedJSON{w.ID, w.Address, w.Currency, w.Network, i + 1})
		}
	}
	s.mu.Unlock()
	c.json(http.StatusOK, out)
}

// byID finds an internal wallet by id or addressId.
func (ws *walletState) byID(id string) *internalWallet {
	for _, w := range ws.internal {
		if w.ID == id || w.AddressID == id {
			return w
		}
	}
	return nil
}

// readAddressID reads {addressId}; it has answered when ok is false.
func readAddressID(c *call) (string, bool) {
	var in struct {
		AddressID any `json:"addressId"`
	}
	if !c.decode(&in) {
		return "", false
	}
	id, _ := in.AddressID.(string)
	id = strings.TrimSpace(id)
	if id == "" {
		c.fail(http.StatusUnprocessableEntity, "addressId is required")
		return "", false
	}
	return id, true
}

// changeLinked reads {addressId} and runs change, with s.mu held, on the
// user's wallets and the internal wallet the id names (nil when none).
// change returns the status to answer and, when it refuses, why: the one
// path of link and unlink.
func (s *Server) changeLinked(c *call, change func(ws *walletState, w *internalWallet) (status int, refusal string)) {
	id, ok := readAddressID(c)
	if !ok {
		return
	}
	s.mu.Lock()
	ws := walletsOf(c.user)
	status, refusal := change(ws, ws.byID(id))
	if refusal == "" {
		s.keepUserLocked(c.user)
	}
	s.mu.Unlock()
	if refusal != "" {
		c.fail(status, refusal)
		return
	}
	c.json(status, success)
}

// walletLink: POST /v1/wallet/internal/card_linked {addressId}.
func (s *Server) walletLink(c *call) {
	s.changeLinked(c, func(ws *walletState, w *internalWallet) (int, string) {
		switch {
		case w == nil:
			return http.StatusNotFound, "Wallet not found"
		case slices.Contains(ws.linked, w.ID):
			return http.StatusBadRequest, "Wallet is already linked to the card"
		case len(ws.linked) >= maxLinked:
			return http.StatusBadRequest, "A maximum of 5 wallets can be linked"
		}
		ws.linked = append(ws.linked, w.ID)
		return http.StatusCreated, ""
	})
}

// walletUnlink: DELETE /v1/wallet/internal/card_linked {addressId}; the
// remaining wallets keep their order.
func (s *Server) walletUnlink(c *call) {
	s.changeLinked(c, func(ws *walletState, w *internalWallet) (int, string) {
		switch {
		case w == nil:
			return http.StatusNotFound, "Wallet not found"
		case !slices.Contains(ws.linked, w.ID):
			return http.StatusNotFound, "Wallet is not linked to the card"
		}
		ws.linked = slices.DeleteFunc(ws.linked, func(x string) bool { return x == w.ID })
		return http.StatusOK, ""
	})
}

// walletExternal: GET /v1/wallet/external.
func (s *Server) walletExternal(c *call) {
	s.mu.Lock()
	out := convertAll(walletsOf(c.user).external, func(w externalWallet) externalJSON { return externalJSON(w) })
	s.mu.Unlock()
	answerInShape(s, c, out, altExternalWallets)
}

// walletCredit: GET /v1/wallet/credit; 404 before the first credit.
func (s *Server) walletCredit(c *call) {
	c.answerFound("Credit wallet not found", func() any {
		if cw := walletsOf(c.user).credit; cw != nil {
			return inShape(s, creditJSON{cw.ID, formatMicros(cw.Balance), "usdc", cw.IsWithdrawable, "credit"}, altCreditWallet)
		}
		return nil
	})
}

// withdrawEstimation: GET /v1/wallet/credit/withdraw-estimation. The
// alternate shape estimates for the query's amount when one is given (a
// decimal USDC amount), else for the whole balance.
func (s *Server) withdrawEstimation(c *call) {
	asked, askedErr := parseMicros(c.r.URL.Query().Get("amount"))
	c.answerFound("Credit wallet not found", func() any {
		cw := walletsOf(c.user).credit
		switch {
		case cw == nil:
			return nil
		case s.opts.AltShapes && askedErr == nil && asked > 0:
			return altWithdrawEstimationFor(asked, cw.Balance)
		case s.opts.AltShapes:
			return altWithdrawEstimation(cw.Balance)
		}
		return map[string]string{"wei": withdrawFeeWei, "eth": withdrawFeeETH, "usdc": formatMicros(withdrawFeeMicros)}
	})
}

// withdraw: POST /v1/wallet/credit/withdraw {amount} -> {txHash}.
func (s *Server) withdraw(c *call) {
	var in struct {
		Amount json.RawMessage `json:"amount"`
	}
	if !c.decode(&in) {
		return
	}
	var amountText string
	_ = json.Unmarshal(in.Amount, &amountText)
	amount, amountErr := parseMicros(amountText)

	s.mu.Lock()
	ws := walletsOf(c.user)
	cw := ws.credit
	now := s.now()
	status, msg := 0, ""
	switch {
	case cw == nil:
		status, msg = http.StatusNotFound, "Credit wallet not found"
	case amountErr != nil:
		status, msg = http.StatusUnprocessableEntity, "Invalid amount: "+amountErr.Error()
	case !cw.IsWithdrawable:
		status, msg = http.StatusForbidden, "Withdrawal not allowed for this wallet"
	case len(ws.external) == 0:
		status, msg = http.StatusBadRequest, "No external wallet registered: complete the delegation first"
	case now.Before(cw.pendingUntil):
		status, msg = http.StatusConflict, "A withdrawal is already in progress for this wallet"
	case amount <= withdrawFeeMicros:
		status, msg = http.StatusUnprocessableEntity, "Invalid amount: it must be greater than the network fee of "+formatMicros(withdrawFeeMicros)+" USDC"
	case cw.Balance < amount:
		status, msg = http.StatusBadRequest, fmt.Sprintf("Insufficient balance: %s USDC available, %s USDC requested",
			formatMicros(cw.Balance), formatMicros(amount))
	}
	if msg != "" {
		s.mu.Unlock()
		c.fail(status, msg)
		return
	}
	cw.withdrawals++
	cw.Balance -= amount
	cw.pendingUntil = now.Add(withdrawalSettle)
	sum := sha256.Sum256([]byte(strings.Join([]string{c.user.ID, cw.ID, strconv.Itoa(cw.withdrawals), formatMicros(amount)}, "\x00")))
	tx := "0x" + hex.EncodeToString(sum[:])
	to := ws.external[0].Address
	ws.history[cw.ID] = append(ws.history[cw.ID], historyRecord{
		Name: "Withdrawal to " + to[:10] + "… (receives " + formatMicros(amount-withdrawFeeMicros) + ")", Amount: formatMicros(amount),
		Currency: "usdc", Sign: "DEBIT", Date: now.UTC().Format(time.RFC3339),
	})
	s.emitLocked(c.be, c.user.ID, WebhookEventWithdrawalSent, tx, map[string]any{
		"walletId": cw.ID, "amount": formatMicros(amount), "fee": formatMicros(withdrawFeeMicros),
		"received": formatMicros(amount - withdrawFeeMicros), "currency": "usdc", "toAddress": to, "txHash": tx,
	})
	s.keepUserLocked(c.user)
	s.mu.Unlock()
	if s.opts.AltShapes {
		c.json(http.StatusOK, altWithdrawalOf(tx, amount))
		return
	}
	c.json(http.StatusOK, map[string]string{"txHash": tx})
}

type historyJSON struct {
	Name     string `json:"name"`
	Amount   string `json:"amount"`
	Currency string `json:"currency"`
	Sign     string `json:"sign"`
	Date     string `json:"date"`
}

// historyPage is the interface's page size of wallet history.
const historyPage = 10

// walletHistory: GET /v1/wallet/history?walletId&walletType&walletCurrency&page,
// newest first, 10 a page, pages from 0; past the end an empty array.
func (s *Server) walletHistory(c *call) {
	q := c.r.URL.Query()
	id := strings.TrimSpace(q.Get("walletId"))
	typ := strings.ToLower(strings.TrimSpace(q.Get("walletType")))
	cur := strings.ToLower(strings.TrimSpace(q.Get("walletCurrency")))
	page := 0
	if p := q.Get("page"); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			c.fail(http.StatusUnprocessableEntity, "page must be a whole number from 0")
			return
		}
		page = n
	}
	switch {
	case id == "":
		c.fail(http.StatusUnprocessableEntity, "walletId is required")
		return
	case typ != "" && typ != "internal" && typ != "credit":
		c.fail(http.StatusUnprocessableEntity, "walletType must be internal or credit")
		return
	}
	s.mu.Lock()
	ws := walletsOf(c.user)
	key, currency := "", ""
	if w := ws.byID(id); w != nil && typ != "credit" {
		key, currency = w.ID, w.Currency
	} else if ws.credit != nil && ws.credit.ID == id && typ != "internal" {
		key, currency = ws.credit.ID, "usdc"
	}
	var out []historyJSON
	if key != "" && (cur == "" || cur == currency) {
		h := ws.history[key]
		for i := len(h) - 1 - page*historyPage; i >= 0 && len(out) < historyPage; i-- {
			out = append(out, historyJSON(h[i]))
		}
	}
	s.mu.Unlock()
	if key == "" || (cur != "" && cur != currency) {
		c.fail(http.StatusNotFound, "Wallet not found")
		return
	}
	if out == nil {
		out = []historyJSON{}
	}
	answerInShape(s, c, out, altHistory)
}
