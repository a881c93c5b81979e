package budget

import (
	"math/big"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
)

// Thresholds are the shares of a budget that raise an alert when a
// payment crosses them, in percent.
var Thresholds = []int{80, 100}

// Month is the month a time falls in, in UTC ("2026-11"): the period a
// budget counts.
func Month(t time.Time) string { return t.UTC().Format("2006-01") }

// Tracker adds one month's spending up against the book's budgets.
type Tracker struct {
	book  Book
	month string
	// spent is what each budget has used, in the budget's order.
	spent []ledger.Total
}

// NewTracker measures month ("2026-11") against the book.
func NewTracker(book Book, month string) *Tracker {
	return &Tracker{book: book, month: month, spent: make([]ledger.Total, len(book.Budgets))}
}

// Crossing is a payment that took a budget past a threshold.
type Crossing struct {
	Budget    Budget
	Threshold int
	Percent   int
	Spent     string
	// Transaction is the payment's id.
	Transaction string
}

// Add counts a transaction (read in its gateway's shape) when it is
// spending in the tracker's month, and says which thresholds it crossed.
func (t *Tracker) Add(x *apiclient.Transaction) []Crossing {
	if len(t.book.Budgets) == 0 || !strings.HasPrefix(utcDay(x.DateTime), t.month) {
		return nil
	}
	amount, currency, ok := ledger.Spent(x)
	if !ok {
		return nil
	}
	var out []Crossing
	for i, b := range t.book.Budgets {
		if b.Currency != currency || !Covers(b, x) {
			continue
		}
		before := Percent(&t.spent[i], b.Limit)
		t.spent[i].AddParsed(amount, false)
		after := Percent(&t.spent[i], b.Limit)
		for _, th := range Thresholds {
			if before < th && after >= th {
				out = append(out, Crossing{Budget: b, Threshold: th, Percent: after, Spent: t.spent[i].String(), Transaction: x.ID})
			}
		}
	}
	return out
}

// Count adds a transaction without asking what it crossed: reading a
// month's history, where only the sums matter.
func (t *Tracker) Count(x *apiclient.Transaction) {
	if len(t.book.Budgets) == 0 || !strings.HasPrefix(utcDay(x.DateTime), t.month) {
		return
	}
	amount, currency, ok := ledger.Spent(x)
	if !ok {
		return
	}
	for i, b := range t.book.Budgets {
		if b.Currency == currency && Covers(b, x) {
			t.spent[i].AddParsed(amount, false)
		}
	}
}

// Covers says the budget counts the transaction's category.
func Covers(b Budget, x *apiclient.Transaction) bool {
	if b.Category == Overall {
		return true
	}
	return strings.EqualFold(b.Category, strings.TrimSpace(x.MCCCategory)) ||
		strings.EqualFold(b.Category, ledger.CategoryOf(x.MCC, x.MCCCategory))
}

// Progress is a budget and how much of it the month used.
type Progress struct {
	Budget  Budget `json:"budget"`
	Month   string `json:"month"`
	Spent   string `json:"spent"`
	Left    string `json:"left"`
	Percent int    `json:"percent"`
	Count   int    `json:"payments"`
}

// Progress is every budget's state now, in the book's order.
func (t *Tracker) Progress() []Progress {
	out := make([]Progress, len(t.book.Budgets))
	for i, b := range t.book.Budgets {
		spent := &t.spent[i]
		left, _ := new(big.Rat).SetString(b.Limit)
		used, _ := new(big.Rat).SetString(spent.String())
		left.Sub(left, used)
		out[i] = Progress{Budget: b, Month: t.month, Spent: spent.String(), Left: decimal(left), Percent: Percent(spent, b.Limit), Count: spent.Count()}
	}
	return out
}

// Percent is the share of limit spent, in whole percent rounded down
// (99.99% is 99: a budget is at 100% only once it is all used).
func Percent(spent *ledger.Total, limit string) int {
	l, ok := new(big.Rat).SetString(limit)
	if !ok || l.Sign() <= 0 || spent.Sign() <= 0 {
		return 0
	}
	s, _ := new(big.Rat).SetString(spent.String())
	s.Mul(s, big.NewRat(100, 1)).Quo(s, l)
	return int(new(big.Int).Quo(s.Num(), s.Denom()).Int64())
}

// decimal writes a rational that came from decimals with two places at
// least ("-12.5" as "-12.50").
func decimal(r *big.Rat) string {
	text := r.FloatString(8)
	text = strings.TrimRight(text, "0")
	whole, frac, _ := strings.Cut(text, ".")
	for len(frac) < 2 {
		frac += "0"
	}
	return whole + "." + frac
}

// utcDay is a timestamp's day in UTC, "" when it is none.
func utcDay(s string) string {
	if len(s) >= 20 && s[10] == 'T' && s[len(s)-1] == 'Z' {
		return s[:10]
	}
	if t, ok := ledger.ParseTime(s); ok {
		return t.UTC().Format(time.DateOnly)
	}
	return ""
}
