package sandbox

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Simulated card activity (SANDBOX-ONLY): a partner makes an authorization,
// a decline, a clearing or a refund happen on a user's card and watches
// their backend react, as Lithic's sandbox lets them.
//
//	POST /sandbox/simulate {type, user, amount, currency, merchant, mcc, reason, authorizationId}
//	  -> 200 {transaction, authorization, eventId, eventType, deliveries:[{id, name, url}]}
//
// Each step is a record of its own in GET /v1/card/transactions, newest
// first, in the list's shape plus transactionType (AUTHORIZATION, CLEARING,
// REFUND) and, for a clearing or a refund, authorizationId:
//
//	authorization  PENDING DEBIT; declined instead (CARD_FROZEN, CARD_BLOCKED)
//	               when the card is not ACTIVE, as the interface says
//	decline        an authorization DECLINED with reason (default INSUFFICIENT_FUNDS)
//	clearing       CONFIRMED DEBIT of a PENDING authorization (default the
//	               user's latest), its amount unless one is given; the
//	               authorization turns CONFIRMED and names its clearingId
//	refund         CONFIRMED CREDIT of a cleared authorization (default the
//	               latest), at most what is left of it (default all of it)
//
// Events, with the new record as event_object: transaction.authorized,
// transaction.declined, transaction.cleared, transaction.refunded.

// Simulated transaction event types (see the table above).
const (
	WebhookEventTransactionAuthorized = "transaction.authorized"
	WebhookEventTransactionDeclined   = "transaction.declined"
	WebhookEventTransactionCleared    = "transaction.cleared"
	WebhookEventTransactionRefunded   = "transaction.refunded"
	WebhookEventTransactionReversed   = "transaction.reversed"
)

// The kinds of simulated step (the request's type).
const (
	SimulateAuthorization = "authorization"
	SimulateDecline       = "decline"
	SimulateClearing      = "clearing"
	SimulateRefund        = "refund"
	SimulateIncrement     = "increment"
	SimulateReversal      = "reversal"
	SimulateATM           = "atm"
)

// SimulateTypes are the steps POST /sandbox/simulate takes: the first four
// in the order a card payment goes through them, then the others (the
// Events screen's panel offers them in this order).
var SimulateTypes = []string{SimulateAuthorization, SimulateDecline, SimulateClearing, SimulateRefund,
	SimulateIncrement, SimulateReversal, SimulateATM}

// Transaction types of the simulated records.
const (
	transactionAuthorization = "AUTHORIZATION"
	transactionClearing      = "CLEARING"
	transactionRefund        = "REFUND"
	transactionReversal      = "REVERSAL"
	transactionIncrement     = "INCREMENTAL_AUTHORIZATION"
)

// simulateRequest is the body of POST /sandbox/simulate.
type simulateRequest struct {
	Type            string `json:"type"`
	User            string `json:"user"`
	Amount          string `json:"amount"`
	Currency        string `json:"currency"`
	Merchant        string `json:"merchant"`
	MCC             string `json:"mcc"`
	Reason          string `json:"reason"`
	AuthorizationID string `json:"authorizationId"`
}

// SimulateResult is what a simulated step made: the new record, the
// authorization it refers to as it is now (clearing and refund), and the
// event sent about it.
type SimulateResult struct {
	Transaction   transactionRecord   `json:"transaction"`
	Authorization *transactionRecord  `json:"authorization,omitempty"`
	EventID       string              `json:"eventId"`
	EventType     string              `json:"eventType"`
	Deliveries    []webhookSubscriber `json:"deliveries"`
}

// simulateProblem is a request the sandbox refuses, with its status.
type simulateProblem struct {
	status int
	msg    string
}

func (p *simulateProblem) Error() string { return p.msg }

func refuseSimulation(status int, format string, args ...any) error {
	return &simulateProblem{status: status, msg: fmt.Sprintf(format, args...)}
}

var (
	amountRE = lazyRegexp{pattern: `^\d{1,9}(\.\d{1,2})?$`}
	mccRE    = lazyRegexp{pattern: `^\d{4}$`}
	reasonRE = lazyRegexp{pattern: `^[A-Z][A-Z0-9_]{0,63}$`}
)

// maxMerchantName bounds a simulated merchant's name.
const maxMerchantName = 120

// amountCents reads a positive amount of at most two decimals.
func amountCents(s string) (int, error) {
	s = strings.TrimSpace(s)
	if !amountRE.get().MatchString(s) {
		return 0, refuseSimulation(http.StatusBadRequest, "amount %q must be a positive decimal with at most two decimals, such as 12.50", s)
	}
	whole, frac, _ := strings.Cut(s, ".")
	for len(frac) < 2 {
		frac += "0"
	}
	w, _ := strconv.Atoi(whole)
	f, _ := strconv.Atoi(frac)
	c := w*100 + f
	if c == 0 {
		return 0, refuseSimulation(http.StatusBadRequest, "amount must be more than 0")
	}
	return c, nil
}

// categoryOfMCC is the list's category of a merchant category code: the
// seed merchants' codes, else OTHER.
func categoryOfMCC(mcc string) string {
	for _, m := range merchants {
		if m.mcc == mcc {
			return m.category
		}
	}
	return "OTHER"
}

// simulateRoute: POST /sandbox/simulate.
func (s *Server) simulateRoute(c *call) {
	var in simulateRequest
	if !c.decode(&in) {
		return
	}
	s.mu.Lock()
	out, err := s.simulateLocked(c.be, in)
	s.mu.Unlock()
	if err != nil {
		status := http.StatusBadRequest
		if p, ok := err.(*simulateProblem); ok {
			status = p.status
		}
		c.fail(status, err.Error())
		return
	}
	c.json(http.StatusOK, out)
}

// simulateLocked makes one step happen. Call with s.mu held.
func (s *Server) simulateLocked(be *backend, in simulateRequest) (SimulateResult, error) {
	kind := strings.ToLower(strings.TrimSpace(in.Type))
	if !slices.Contains(SimulateTypes, kind) {
		return SimulateResult{}, refuseSimulation(http.StatusBadRequest, "type %q must be one of %s", in.Type, strings.Join(SimulateTypes, ", "))
	}
	u := userOf(be, strings.TrimSpace(in.User))
	if u == nil {
		return SimulateResult{}, refuseSimulation(http.StatusNotFound, "User not found in this tenant and region")
	}
	if u.Card == nil {
		return SimulateResult{}, refuseSimulation(http.StatusNotFound, "Card not found: %s has no card to pay with", u.Username)
	}
	s.expireUserAuthorizationsLocked(be, u)
	var t transactionRecord
	var auth *transactionRecord
	var err error
	switch kind {
	case SimulateAuthorization, SimulateDecline, SimulateATM:
		t, err = s.newAuthorization(u, kind, in)
	case SimulateClearing:
		t, auth, err = s.clearAuthorization(u, in)
	case SimulateRefund:
		t, auth, err = s.refundAuthorization(u, in)
	case SimulateIncrement:
		t, auth, err = s.incrementAuthorization(u, in)
	case SimulateReversal:
		t, auth, err = s.reverseAuthorization(u, in)
	}
	if err != nil {
		return SimulateResult{}, err
	}
	u.simulated = append(u.simulated, t)
	s.keepUserLocked(u)
	eventType := eventTypeOf(t)
	ev, to := s.emitLocked(be, u.ID, eventType, t.ID, t)
	if to == nil {
		to = []webhookSubscriber{}
	}
	var authNow *transactionRecord
	if auth != nil {
		copied := *auth
		authNow = &copied
	}
	return SimulateResult{Transaction: t, Authorization: authNow, EventID: ev.EventID, EventType: eventType, Deliveries: to}, nil
}

// newAuthorization builds an authorization, declined when asked to or when
// the card cannot pay.
func (s *Server) newAuthorization(u *userRecord, kind string, in simulateRequest) (transactionRecord, error) {
	amount, err := amountCents(in.Amount)
	if err != nil {
		return transactionRecord{}, err
	}
	currency := strings.ToUpper(strings.TrimSpace(in.Currency))
	if currency == "" {
		currency = "EUR"
	}
	if _, ok := fxRate.get()[currency]; !ok {
		return transactionRecord{}, refuseSimulation(http.StatusBadRequest, "currency %q: the sandbox converts %s", currency, strings.Join(slices.Sorted(maps.Keys(fxRate.get())), ", "))
	}
	merchant := strings.TrimSpace(in.Merchant)
	switch {
	case merchant == "" && kind == SimulateATM:
		merchant = "ATM Sandbox Bank"
	case merchant == "":
		merchant = "Sandbox Merchant"
	}
	if len(merchant) > maxMerchantName {
		return transactionRecord{}, refuseSimulation(http.StatusBadRequest, "merchant must be at most %d bytes", maxMerchantName)
	}
	mcc := strings.TrimSpace(in.MCC)
	switch {
	case kind == SimulateATM && mcc != "" && mcc != mccATM:
		return transactionRecord{}, refuseSimulation(http.StatusBadRequest, "an ATM withdrawal has MCC %s", mccATM)
	case kind == SimulateATM:
		mcc = mccATM
	case mcc == "":
		mcc = "5999"
	}
	if !mccRE.get().MatchString(mcc) {
		return transactionRecord{}, refuseSimulation(http.StatusBadRequest, "mcc %q must be four digits (a merchant category code, such as 5814)", mcc)
	}
	reason := strings.ToUpper(strings.TrimSpace(in.Reason))
	switch {
	case kind == SimulateDecline && reason == "":
		reason = "INSUFFICIENT_FUNDS"
	case kind != SimulateDecline && reason != "":
		return transactionRecord{}, refuseSimulation(http.StatusBadRequest, "reason is for a decline; an authorization is approved unless the card is not ACTIVE")
	case kind != SimulateDecline && u.Card.Status == cardFrozen:
		reason = "CARD_FROZEN" // the interface: a frozen card declines every attempt
	case kind != SimulateDecline && u.Card.Status == cardBlocked:
		reason = "CARD_BLOCKED"
	}
	if reason != "" && !reasonRE.get().MatchString(reason) {
		return transactionRecord{}, refuseSimulation(http.StatusBadRequest, "reason %q must be an upper-case code such as INSUFFICIENT_FUNDS", in.Reason)
	}
	t := s.simulatedRecord(u, transactionAuthorization, "DEBIT", amount, currency)
	t.MerchantNameLocation, t.MCC, t.MCCCategory = merchant, mcc, categoryOfMCC(mcc)
	t.Status = "PENDING"
	if kind == SimulateATM {
		atmWithdrawal(&t)
	}
	if reason != "" {
		t.Status, t.DeclineReason, t.FeeAmount = "DECLINED", &reason, "0.00"
	}
	return t, nil
}

// simulatedRecord is a new record of u dated now, its amounts converted
// and its fee worked out as the seed does (1.5% abroad).
func (s *Server) simulatedRecord(u *userRecord, kind, sign string, amount int, currency string) transactionRecord {
	billing, fee := amount, 0
	if currency != "EUR" {
		billing = amount * fxRate.get()[currency] / 100
		fee = (billing*15 + 500) / 1000
	}
	seq := strconv.Itoa(len(u.simulated))
	return transactionRecord{
		ID: uuidFrom("simulated-txn", u.ID, seq), DateTime: s.now().UTC().Format(time.RFC3339), Sign: sign,
		TransactionAmount: cents(amount), TransactionCurrency: currency, BillingAmount: cents(billing), BillingCurrency: "EUR",
		FeeAmount: cents(fee), FeeCurrency: "EUR", Channel: "ONLINE", AuthorizationCode: fmt.Sprintf("%06d", hashNum("auth/"+u.ID+seq)%1000000),
		TransactionType: kind,
	}
}

// findAuthorization is the authorization a clearing or refund refers to:
// the one named, else u's latest in status want.
func findAuthorization(u *userRecord, id, want string) (*transactionRecord, error) {
	id = strings.TrimSpace(id)
	for i := len(u.simulated) - 1; i >= 0; i-- {
		t := &u.simulated[i]
		if t.TransactionType != transactionAuthorization {
			continue
		}
		if id == t.ID || (id == "" && t.Status == want) {
			return t, nil
		}
	}
	if id != "" {
		return nil, refuseSimulation(http.StatusNotFound, "No simulated authorization %s for %s", id, u.Username)
	}
	state := map[string]string{"PENDING": "pending", "CONFIRMED": "cleared"}[want]
	return nil, refuseSimulation(http.StatusNotFound, "%s has no %s authorization: simulate an authorization first (or name one with authorizationId)", u.Username, state)
}

// clearAuthorization settles a pending authorization.
func (s *Server) clearAuthorization(u *userRecord, in simulateRequest) (transactionRecord, *transactionRecord, error) {
	auth, amount, err := s.clearable(u, in)
	if err != nil {
		return transactionRecord{}, nil, err
	}
	t := s.simulatedRecord(u, transactionClearing, "DEBIT", amount, auth.TransactionCurrency)
	t.MerchantNameLocation, t.MCC, t.MCCCategory = auth.MerchantNameLocation, auth.MCC, auth.MCCCategory
	t.Status, t.AuthorizationID, t.AuthorizationCode = "CONFIRMED", auth.ID, auth.AuthorizationCode
	t.Channel = auth.Channel
	confirmAuthorization(u, auth, t.ID)
	return t, auth, nil
}

// refundAuthorization gives back (part of) a cleared authorization.
func (s *Server) refundAuthorization(u *userRecord, in simulateRequest) (transactionRecord, *transactionRecord, error) {
	auth, err := findAuthorization(u, in.AuthorizationID, "CONFIRMED")
	if err != nil {
		return transactionRecord{}, nil, err
	}
	if auth.Status != "CONFIRMED" {
		return transactionRecord{}, nil, refuseSimulation(http.StatusConflict, "Authorization %s is %s: only a cleared authorization can be refunded", auth.ID, auth.Status)
	}
	left := clearedCents(u, auth)
	for _, t := range u.simulated {
		if t.AuthorizationID == auth.ID && t.TransactionType == transactionRefund {
			refunded, _ := amountCents(t.TransactionAmount)
			left -= refunded
		}
	}
	if left <= 0 {
		return transactionRecord{}, nil, refuseSimulation(http.StatusConflict, "Authorization %s is refunded in full already", auth.ID)
	}
	amount := left
	if strings.TrimSpace(in.Amount) != "" {
		if amount, err = stepAmount(in, auth); err != nil {
			return transactionRecord{}, nil, err
		}
		if amount > left {
			return transactionRecord{}, nil, refuseSimulation(http.StatusConflict, "a refund of %s %s is more than the %s %s left of authorization %s",
				cents(amount), auth.TransactionCurrency, cents(left), auth.TransactionCurrency, auth.ID)
		}
	}
	t := s.simulatedRecord(u, transactionRefund, "CREDIT", amount, auth.TransactionCurrency)
	t.MerchantNameLocation, t.MCC, t.MCCCategory = auth.MerchantNameLocation, auth.MCC, auth.MCCCategory
	t.Status, t.AuthorizationID, t.FeeAmount = "CONFIRMED", auth.ID, "0.00"
	return t, auth, nil
}

// stepAmount is a clearing's or refund's amount: the one given (in the
// authorization's currency), else the authorization's.
func stepAmount(in simulateRequest, auth *transactionRecord) (int, error) {
	if c := strings.ToUpper(strings.TrimSpace(in.Currency)); c != "" && c != auth.TransactionCurrency {
		return 0, refuseSimulation(http.StatusBadRequest, "currency %s differs from the authorization's (%s)", c, auth.TransactionCurrency)
	}
	if strings.TrimSpace(in.Amount) == "" {
		return amountCents(auth.TransactionAmount)
	}
	return amountCents(in.Amount)
}

// simulatedFromFixture is a stored user's simulated transactions (a
// fixture holds them as they were answered).
func simulatedFromFixture(in []transactionRecord) []transactionRecord {
	if len(in) == 0 {
		return nil
	}
	return slices.Clone(in)
}
