package sandbox

import (
	"fmt"
	"sync"
	"time"
)

// transactionRecord is one seeded card transaction, in its wire form. Channel and
// AuthorizationCode are fields the interface does not show, so clients'
// tolerant readers get exercised.
type transactionRecord struct {
	ID                   string  `json:"id"`
	DateTime             string  `json:"dateTime"`
	Sign                 string  `json:"sign"`
	MerchantNameLocation string  `json:"merchantNameLocation"`
	MCC                  string  `json:"mcc"`
	MCCCategory          string  `json:"mccCategory"`
	TransactionAmount    string  `json:"transactionAmount"`
	TransactionCurrency  string  `json:"transactionCurrency"`
	BillingAmount        string  `json:"billingAmount"`
	BillingCurrency      string  `json:"billingCurrency"`
	FeeAmount            string  `json:"feeAmount"`
	FeeCurrency          string  `json:"feeCurrency"`
	Status               string  `json:"status"`
	DeclineReason        *string `json:"declineReason"`
	Channel              string  `json:"channel"`
	AuthorizationCode    string  `json:"authorizationCode"`
	// Simulated records only (simulate.go): which step of a payment, the
	// authorization a clearing or refund refers to, the clearing of an
	// authorization.
	TransactionType string `json:"transactionType,omitempty"`
	AuthorizationID string `json:"authorizationId,omitempty"`
	ClearingID      string `json:"clearingId,omitempty"`
	// ReversalReason says why a REVERSAL released a hold (EXPIRED, or the
	// merchant's reason).
	ReversalReason string `json:"reversalReason,omitempty"`
}

// transactionAnchor is the newest seeded transaction's time: fixed, so the seed is
// the same on every run and on every clock. (A function, as is seedTime: a
// package time.Time is computed before main on every start.)
func transactionAnchor() time.Time { return time.Date(2026, 11, 20, 18, 0, 0, 0, time.UTC) }

// merchant is a seed merchant: where, which MCC and category, typical spend
// in cents and currency.
type merchant struct {
	name, mcc, category string
	minCents, maxCents  int
	currency            string
}

var merchants = []merchant{
	{"Carrefour City, Paris FR", "5411", "GROCERIES", 300, 9000, "EUR"},
	{"Lidl, Berlin DE", "5411", "GROCERIES", 500, 12000, "EUR"},
	{"Migros, Zurich CH", "5411", "GROCERIES", 800, 15000, "CHF"},
	{"Cafe de Flore, Paris FR", "5812", "RESTAURANTS", 450, 6000, "EUR"},
	{"Trattoria Da Enzo, Rome IT", "5812", "RESTAURANTS", 1500, 9000, "EUR"},
	{"Pret A Manger, London GB", "5814", "RESTAURANTS", 400, 1800, "GBP"},
	{"RATP Navigo, Paris FR", "4111", "TRANSPORT", 210, 8640, "EUR"},
	{"Uber Trip, Amsterdam NL", "4121", "TRANSPORT", 800, 4500, "EUR"},
	{"Air France, Roissy FR", "4511", "TRAVEL", 9000, 65000, "EUR"},
	{"Hotel Sacher, Vienna AT", "7011", "TRAVEL", 18000, 52000, "EUR"},
	{"Booking.com, Amsterdam NL", "4722", "TRAVEL", 7000, 40000, "EUR"},
	{"Amazon EU, Luxembourg LU", "5942", "SHOPPING", 900, 25000, "EUR"},
	{"Zara, Madrid ES", "5651", "SHOPPING", 1999, 14999, "EUR"},
	{"Apple Store, New York US", "5732", "SHOPPING", 2900, 149900, "USD"},
	{"Netflix, Los Gatos US", "4899", "ENTERTAINMENT", 1399, 1799, "EUR"},
	{"Spotify, Stockholm SE", "5815", "ENTERTAINMENT", 1099, 1699, "EUR"},
	{"Pathe Cinemas, Lyon FR", "7832", "ENTERTAINMENT", 1100, 3200, "EUR"},
	{"EDF Electricite, Paris FR", "4900", "UTILITIES", 4500, 16000, "EUR"},
	{"Pharmacie Centrale, Nice FR", "5912", "HEALTH", 350, 6500, "EUR"},
	{"Cash Withdrawal ATM, Brussels BE", "6011", "CASH", 2000, 30000, "EUR"},
}

// hostileMerchants appear in mallory's list: terminal escapes and bidi
// text, so the app's sanitizer is exercised on the transaction screens too.
var hostileMerchants = []merchant{
	{"EVIL\x1b[31m SHOP\x1b[0m\u202eRF siraP", "5999", "SHOPPING", 100, 9999, "EUR"},
	{"\x1b]8;;https://evil.example/\x07Refund here\x1b]8;;\x07", "5999", "SHOPPING", 100, 9999, "EUR"},
}

var declineReasons = []string{"INSUFFICIENT_FUNDS", "CARD_FROZEN", "INCORRECT_PIN", "LIMIT_EXCEEDED", "MERCHANT_BLOCKED", "SUSPECTED_FRAUD"}

var channels = []string{"CONTACTLESS", "CHIP", "ONLINE", "MOBILE_WALLET"}

// fxRate is cents of EUR per 100 units of another currency (seed values),
// made at first use.
var fxRate = lazy[map[string]int]{build: func() map[string]int {
	return map[string]int{"EUR": 100, "CHF": 106, "GBP": 117, "USD": 92}
}}

var transactionCache sync.Map // username -> []transactionRecord

// seededTransactions is the deterministic history of a seed user that has
// a card: a few hundred transactions, newest first, every status and
// category. Users seeded without a card have none.
func seededTransactions(username string) []transactionRecord {
	if v, ok := transactionCache.Load(username); ok {
		return v.([]transactionRecord)
	}
	var su *seedUser
	users := seedUsers.get()
	for i := range users {
		if users[i].username == username {
			su = &users[i]
		}
	}
	var out []transactionRecord
	if su != nil && su.card != nil {
		out = withSubscriptions(username, generateTransactions(username))
	}
	v, _ := transactionCache.LoadOrStore(username, out)
	return v.([]transactionRecord)
}

// rng is a small deterministic generator (LCG) for the seed.
type rng struct{ state uint64 }

func (r *rng) next() uint64 {
	r.state = r.state*6364136223846793005 + 1442695040888963407
	return r.state >> 33
}

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

func cents(c int) string {
	neg := ""
	if c < 0 {
		neg, c = "-", -c
	}
	return fmt.Sprintf("%s%d.%02d", neg, c/100, c%100)
}

func generateTransactions(username string) []transactionRecord {
	r := &rng{state: uint64(hashNum("txn/"+username)) + 1}
	n := 240 + r.intn(120)
	pool := merchants
	if username == "mallory@demo.test" {
		pool = append(append([]merchant(nil), merchants...), hostileMerchants...)
	}
	out := make([]transactionRecord, 0, n)
	at := transactionAnchor()
	for i := 0; i < n; i++ {
		t := generatedTransaction(r, pool[r.intn(len(pool))], at, i < 4)
		t.ID = uuidFrom("txn", username, fmt.Sprint(i))
		out = append(out, t)
		at = at.Add(-time.Duration(20+r.intn(1400)) * time.Minute)
	}
	return out
}

// generatedTransaction is one seeded transaction at m, at the time given:
// its amount, fee and status drawn from r (pending when asked: the newest
// of a history are still pending).
func generatedTransaction(r *rng, m merchant, at time.Time, pending bool) transactionRecord {
	amount := m.minCents + r.intn(m.maxCents-m.minCents+1)
	billing, fee := amount, 0
	if m.currency != "EUR" {
		billing = amount * fxRate.get()[m.currency] / 100
		fee = (billing*15 + 500) / 1000 // 1.5% foreign fee
	}
	t := transactionRecord{
		DateTime:             at.Format(time.RFC3339),
		Sign:                 "DEBIT",
		MerchantNameLocation: m.name,
		MCC:                  m.mcc,
		MCCCategory:          m.category,
		TransactionAmount:    cents(amount),
		TransactionCurrency:  m.currency,
		BillingAmount:        cents(billing),
		BillingCurrency:      "EUR",
		FeeAmount:            cents(fee),
		FeeCurrency:          "EUR",
		Status:               "CONFIRMED",
		Channel:              channels[r.intn(len(channels))],
		AuthorizationCode:    fmt.Sprintf("%06d", r.intn(1000000)),
	}
	switch roll := r.intn(100); {
	case pending || roll < 4:
		t.Status = "PENDING"
	case roll < 11:
		t.Status = "DECLINED"
		reason := declineReasons[r.intn(len(declineReasons))]
		t.DeclineReason = &reason
		t.FeeAmount = "0.00"
	case roll < 14:
		t.Status = "REVERTED"
	case roll < 18 && m.category == "SHOPPING":
		t.Sign = "CREDIT" // a refund
	}
	if m.category == "CASH" && t.Status != "DECLINED" {
		t.FeeAmount = cents(max(fee, 200)) // ATM fee
	}
	return t
}
