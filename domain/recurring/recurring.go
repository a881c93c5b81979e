// Package recurring finds the payments a card holder makes on a rhythm
// (subscriptions, rent, a weekly class) in the transaction history: the
// same merchant, in the same currency, at a regular interval (weekly,
// monthly or yearly, with some tolerance) for a similar amount. For each
// it says the interval, the monthly cost, when the next is expected, and
// flags one that was missed, one whose price changed and one that just
// started. The gateway knows nothing of it: it is read from the history.
package recurring

import (
	"sort"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
)

// Interval is how often a recurring payment comes.
type Interval struct {
	Name string
	// Days is the usual gap; Tolerance how far a gap may stray from it.
	Days, Tolerance int
	// PerYear is how many payments a year it makes (a month's share is
	// PerYear/12): a whole number, so that the table needs no work at start.
	PerYear int64
	// next is the date of the payment after one on at.
	next func(at time.Time) time.Time
	// Least is how many payments make the rhythm sure.
	Least int
}

// Intervals are the rhythms looked for, the shortest first.
var Intervals = []Interval{
	{Name: "weekly", Days: 7, Tolerance: 1, PerYear: 52, Least: 4,
		next: func(at time.Time) time.Time { return at.AddDate(0, 0, 7) }},
	{Name: "monthly", Days: 30, Tolerance: 3, PerYear: 12, Least: 3,
		next: func(at time.Time) time.Time { return at.AddDate(0, 1, 0) }},
	{Name: "yearly", Days: 365, Tolerance: 7, PerYear: 1, Least: 2,
		next: func(at time.Time) time.Time { return at.AddDate(1, 0, 0) }},
}

// similar is how far, in percent, an amount may stray from the usual one
// and still be the same payment.
const similar = 25

// amountScale is the scale amounts are compared at (4 decimals).
const amountScale = 4

// Payment is one payment of a series.
type Payment struct {
	ID     string
	At     time.Time
	Amount string
	units  int64
}

// Series is a recurring payment found.
type Series struct {
	Merchant string
	Currency string
	Interval Interval
	Payments []Payment // oldest first
	// Amount is the latest payment's amount; MonthlyCost what it comes
	// to a month (a weekly one 52/12 times, a yearly one a twelfth).
	Amount, MonthlyCost string
	// Next is the date the next payment is expected.
	Next time.Time
	// Missed: the next payment's date and its tolerance passed without it.
	Missed bool
	// PriceChanged: the latest amount differs from the one before;
	// Previous is that one.
	PriceChanged bool
	Previous     string
	// New: the series has just enough payments to be recognised and was
	// not missed since.
	New bool
}

// Detector takes transactions as they arrive and keeps what a series
// needs of each (a merchant, a time, an amount).
type Detector struct {
	groups map[groupKey]*group
	// keys are the merchants' names as sent, lower-cased once each.
	keys map[string]string
}

type groupKey struct{ merchant, currency string }

type group struct {
	name     string
	payments []Payment
}

// NewDetector starts with nothing seen.
func NewDetector() *Detector {
	return &Detector{groups: map[groupKey]*group{}, keys: map[string]string{}}
}

// Add takes one transaction in its gateway's shape; what is not spending,
// has no merchant, time or usable amount is skipped.
func (d *Detector) Add(x *apiclient.Transaction) {
	name := strings.TrimSpace(x.MerchantNameLocation)
	if name == "" {
		return
	}
	amount, currency, ok := ledger.Spent(x)
	if !ok {
		return
	}
	units, ok := amount.Units(amountScale)
	if !ok || units <= 0 {
		return
	}
	at, ok := ledger.ParseTime(x.DateTime)
	if !ok {
		return
	}
	lower, ok := d.keys[name]
	if !ok {
		lower = strings.ToLower(name)
		d.keys[name] = lower
	}
	k := groupKey{lower, currency}
	g := d.groups[k]
	if g == nil {
		g = &group{name: name}
		d.groups[k] = g
	}
	g.payments = append(g.payments, Payment{ID: x.ID, At: at.UTC(), Amount: amount.Text(), units: units})
}

// Found are the series in what was added, judged at now, the soonest
// expected first.
func (d *Detector) Found(now time.Time) []Series {
	var out []Series
	for k, g := range d.groups {
		if len(g.payments) < 2 {
			continue
		}
		sort.Slice(g.payments, func(i, j int) bool { return g.payments[i].At.Before(g.payments[j].At) })
		if s, ok := seriesOf(g.name, k.currency, g.payments, now); ok {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Next.Equal(out[j].Next) {
			return out[i].Next.Before(out[j].Next)
		}
		return out[i].Merchant < out[j].Merchant
	})
	return out
}
