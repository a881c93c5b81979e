package sandbox

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// A user's transactions are the seeded history (seed_transactions.go) and
// what was added to it while the sandbox runs: AppendTransaction adds one
// new transaction (a payment declined now, for the app's alerts and for
// `cardterm sandbox simulate`), SeedTransactions adds many older ones (a
// long history for statements and insights). Both are kept in memory only,
// like the seed: a data directory does not store them.

// NewTransaction is a transaction to add to a user's history. Only Amount
// is required.
type NewTransaction struct {
	// Merchant is "Name, City CC" (default "Sandbox Shop, Paris FR").
	Merchant string
	// MCC and Category are the merchant category code and the category
	// (default 5999, SHOPPING).
	MCC, Category string
	// Amount is the unsigned decimal amount ("12.40"); Currency its code
	// (default EUR). A currency other than EUR is billed in EUR at the
	// seed's rate.
	Amount, Currency string
	// Sign is DEBIT (default) or CREDIT.
	Sign string
	// Status is CONFIRMED (default), PENDING, DECLINED or REVERTED.
	Status string
	// DeclineReason goes with DECLINED (default INSUFFICIENT_FUNDS).
	DeclineReason string
	// At is when it happened; zero is the sandbox's clock now.
	At time.Time
}

// ErrBadTransaction is returned by AppendTransaction for a transaction
// the gateway would never send (a bad amount, status or sign).
var ErrBadTransaction = errors.New("invalid transaction")

// AppendTransaction adds t to the newest end of user's transactions (a
// user id or username; "" is the first demo user of the demo client key)
// and returns its id. The list answers it first from then on.
func (s *Server) AppendTransaction(user string, t NewTransaction) (string, error) {
	record, err := s.newTransactionRecord(t)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, u := s.findUserLocked(user)
	if u == nil {
		return "", fmt.Errorf("%w %q", errNoUser, user)
	}
	record.ID = uuidFrom("txn-appended", u.ID, strconv.Itoa(len(u.appendedTransactions)))
	u.appendedTransactions = append(u.appendedTransactions, record)
	return record.ID, nil
}

// newTransactionRecord checks t and fills its defaults.
func (s *Server) newTransactionRecord(t NewTransaction) (transactionRecord, error) {
	bad := func(format string, args ...any) (transactionRecord, error) {
		return transactionRecord{}, fmt.Errorf("%w: "+format, append([]any{ErrBadTransaction}, args...)...)
	}
	amountCents, ok := parseCents(t.Amount)
	if !ok {
		return bad("amount %q is not an unsigned amount with at most 2 decimals", t.Amount)
	}
	or := func(v, def string) string {
		if v = strings.TrimSpace(v); v == "" {
			return def
		}
		return v
	}
	r := transactionRecord{
		MerchantNameLocation: or(t.Merchant, "Sandbox Shop, Paris FR"),
		MCC:                  or(t.MCC, "5999"), MCCCategory: strings.ToUpper(or(t.Category, "SHOPPING")),
		TransactionCurrency: strings.ToUpper(or(t.Currency, "EUR")),
		Sign:                strings.ToUpper(or(t.Sign, "DEBIT")), Status: strings.ToUpper(or(t.Status, "CONFIRMED")),
		BillingCurrency: "EUR", FeeCurrency: "EUR", Channel: "ONLINE", AuthorizationCode: "000000",
	}
	if r.Sign != "DEBIT" && r.Sign != "CREDIT" {
		return bad("sign %q is not DEBIT or CREDIT", t.Sign)
	}
	switch r.Status {
	case "CONFIRMED", "PENDING", "REVERTED":
	case "DECLINED":
		reason := or(t.DeclineReason, "INSUFFICIENT_FUNDS")
		r.DeclineReason = &reason
	default:
		return bad("status %q is not CONFIRMED, PENDING, DECLINED or REVERTED", t.Status)
	}
	rate, ok := fxRate.get()[r.TransactionCurrency]
	if !ok {
		return bad("currency %q is not one of EUR, CHF, GBP, USD", t.Currency)
	}
	billing := amountCents * int64(rate) / 100
	r.TransactionAmount, r.BillingAmount, r.FeeAmount = centsText(amountCents), centsText(billing), "0.00"
	at := t.At
	if at.IsZero() {
		at = s.now()
	}
	r.DateTime = at.UTC().Format(time.RFC3339)
	return r, nil
}

// parseCents reads "12.40", "12.4" or "12" as cents.
func parseCents(amount string) (int64, bool) {
	whole, frac, _ := strings.Cut(strings.TrimSpace(amount), ".")
	if whole == "" || len(frac) > 2 || strings.ContainsAny(whole+frac, "+-") {
		return 0, false
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > 1_000_000_000 {
		return 0, false
	}
	f := int64(0)
	if frac != "" {
		if f, err = strconv.ParseInt(frac+strings.Repeat("0", 2-len(frac)), 10, 64); err != nil {
			return 0, false
		}
	}
	return w*100 + f, true
}

func centsText(c int64) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }

// maxSeededTransactions bounds one SeedTransactions.
const maxSeededTransactions = 1_000_000

// SeedTransactions adds n generated transactions, older than the user's
// seeded history, to user's transactions, and returns how many the user
// now has: a long history for statements and insights (100,000 in the
// export benchmark). They are deterministic, in every status and category,
// a few minutes to a day apart.
func (s *Server) SeedTransactions(user string, n int) (int, error) {
	if n < 1 || n > maxSeededTransactions {
		return 0, fmt.Errorf("count must be between 1 and %d", maxSeededTransactions)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, u := s.findUserLocked(user)
	if u == nil {
		return 0, fmt.Errorf("%w %q", errNoUser, user)
	}
	seeded := seededTransactions(u.Username)
	at := transactionAnchor()
	if len(u.earlierTransactions) > 0 {
		at, _ = time.Parse(time.RFC3339, u.earlierTransactions[len(u.earlierTransactions)-1].DateTime)
	} else if len(seeded) > 0 {
		at, _ = time.Parse(time.RFC3339, seeded[len(seeded)-1].DateTime)
	}
	r := &rng{state: uint64(hashNum("txn-earlier/"+u.ID)) + uint64(len(u.earlierTransactions)) + 1}
	start := len(u.earlierTransactions)
	for i := range n {
		at = at.Add(-time.Duration(3+r.intn(600)) * time.Minute)
		t := generatedTransaction(r, merchants[r.intn(len(merchants))], at, false)
		t.ID = uuidFrom("txn-earlier", u.ID, strconv.Itoa(start+i))
		u.earlierTransactions = append(u.earlierTransactions, t)
	}
	return len(u.appendedTransactions) + len(seeded) + len(u.earlierTransactions), nil
}

// transactionsOf walks a user's transactions newest first: those appended
// (newest last, so walked backwards), the seeded history, then the older
// ones SeedTransactions added; yield returns false to stop. Call with s.mu
// held, or with slices taken under it (they are only appended to).
func transactionsOf(appended, seeded, earlier []transactionRecord, yield func(*transactionRecord) bool) {
	for i := len(appended) - 1; i >= 0; i-- {
		if !yield(&appended[i]) {
			return
		}
	}
	for _, list := range [][]transactionRecord{seeded, earlier} {
		for i := range list {
			if !yield(&list[i]) {
				return
			}
		}
	}
}
