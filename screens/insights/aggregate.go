package insights

import (
	"sort"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/domain/notes"
)

// Spending is added up per currency and never across currencies: each
// transaction counts in the currency it was billed in (else the currency
// of its amount). Money out that went through (confirmed or pending) is
// spending, by month (UTC), by merchant category (the MCC's name) and by
// merchant; declined payments and money back (refunds, reversals) are
// counted apart, never as spending. When records are steps of a payment
// (transactionType), an authorization spends only while it is pending:
// once cleared its clearings spend, once released nothing does.

// Bucket is one bar: what it counts, its sums per currency and the
// filter of the Transactions screen that lists the transactions behind
// it.
type Bucket struct {
	Key, Label string
	Totals     ledger.Totals
	Count      int
	// lastCurrency and last are the total added to last: most buckets
	// see one currency, so adding skips the map.
	lastCurrency string
	last         *ledger.Total
	// Filter lists its transactions on the Transactions screen; Tag, for
	// a tag's bar, lists those carrying it instead.
	Filter apiclient.TransactionFilter
	Tag    string
	// codes and words are the MCCs and gateway category words seen, for
	// a category's filter.
	codes, words map[string]bool
}

func newBucket(key, label string) *Bucket {
	return &Bucket{Key: key, Label: label, Totals: ledger.Totals{}}
}

// add counts an amount in the bucket.
func (b *Bucket) add(currency string, amount ledger.Parsed) {
	b.Count++
	if b.last == nil || b.lastCurrency != currency {
		b.last = b.Totals[currency]
		if b.last == nil {
			b.last = &ledger.Total{}
			b.Totals[currency] = b.last
		}
		b.lastCurrency = currency
	}
	b.last.AddParsed(amount, false)
}

// maxMerchants bounds the merchants kept apart; the rest count under
// one bucket.
const maxMerchants = 5000

// Aggregator adds transactions up as they arrive; it never keeps them.
type Aggregator struct {
	months, categories, merchants map[string]*Bucket
	// byMCC finds a category by its code, without naming it again.
	byMCC map[string]*Bucket
	// Spent, Declined and Refunded are the totals of each kind, by
	// currency; counts how many of each.
	Spent, Declined, Refunded *Bucket
	// Transactions is how many were read; NoAmount how many gave none.
	Transactions, NoAmount int
	// First and Last are the oldest and newest days read.
	First, Last string
	// TagsOf, when set, gives a transaction's note and tags
	// (domain/notes): its spending also counts under each tag.
	TagsOf func(id string) notes.Note
	tags   map[string]*Bucket
}

// NewAggregator starts empty totals.
func NewAggregator() *Aggregator {
	return &Aggregator{
		months: map[string]*Bucket{}, categories: map[string]*Bucket{}, merchants: map[string]*Bucket{}, byMCC: map[string]*Bucket{},
		Spent: newBucket("spent", "Spent"), Declined: newBucket("declined", "Declined"), Refunded: newBucket("refunded", "Refunded"),
	}
}

// Add counts one transaction, read in its gateway's shape
// (ledger.AdoptTransactionShape).
func (a *Aggregator) Add(x *apiclient.Transaction) {
	a.Transactions++
	day := dayOf(x.DateTime)
	if day != "" {
		if a.First == "" || day < a.First {
			a.First = day
		}
		if day > a.Last {
			a.Last = day
		}
	}
	value, currency := x.BillingAmount, x.BillingCurrency
	if value == "" {
		value, currency = x.TransactionAmount, x.TransactionCurrency
	}
	amount, ok := ledger.ParseUnits(string(value))
	if !ok {
		a.NoAmount++
		return
	}
	switch step := ledger.PaymentStep(x); {
	case x.Status == apiclient.TxDeclined:
		a.Declined.add(currency, amount)
		return
	case ledger.HoldOnly(step) && x.Status != apiclient.TxPending, step == ledger.StepReversal:
		// A hold that was cleared (its clearings count) or released, and the
		// release itself: no money moved.
		return
	case x.Status == apiclient.TxReverted || x.Sign == apiclient.TxCredit:
		a.Refunded.add(currency, amount)
		return
	}
	a.Spent.add(currency, amount)
	if len(day) >= 7 {
		a.month(day[:7]).add(currency, amount)
	}
	a.category(x.MCC, x.MCCCategory).add(currency, amount)
	a.merchant(x.MerchantNameLocation).add(currency, amount)
	if a.TagsOf != nil && x.ID != "" {
		for _, tag := range a.TagsOf(x.ID).Tags {
			a.tag(tag).add(currency, amount)
		}
	}
}

// dayOf is a timestamp's day in UTC ("2026-11-20"), "" when it is none.
func dayOf(s string) string {
	if len(s) >= 20 && s[10] == 'T' && s[len(s)-1] == 'Z' {
		return s[:10]
	}
	if t, ok := ledger.ParseTime(s); ok {
		return t.UTC().Format(time.DateOnly)
	}
	return ""
}

func (a *Aggregator) month(key string) *Bucket {
	b := a.months[key]
	if b == nil {
		b = newBucket(key, monthLabel(key))
		if from, err := time.Parse("2006-01", key); err == nil {
			b.Filter = apiclient.TransactionFilter{DateFrom: from.Format(time.DateOnly), DateTo: from.AddDate(0, 1, -1).Format(time.DateOnly)}
		}
		a.months[key] = b
	}
	return b
}

// monthLabel is "2026-11" as "Nov 2026".
func monthLabel(key string) string {
	if t, err := time.Parse("2006-01", key); err == nil {
		return t.Format("Jan 2006")
	}
	return key
}

func (a *Aggregator) category(mcc, word string) *Bucket {
	if b := a.byMCC[mcc]; b != nil && mcc != "" && (len(b.words) == 0 || b.words[word]) {
		return b
	}
	label := ledger.CategoryOf(mcc, word)
	b := a.categories[label]
	if b == nil {
		b = newBucket(label, label)
		b.codes, b.words = map[string]bool{}, map[string]bool{}
		a.categories[label] = b
	}
	if mcc != "" && len(b.codes) < 8 {
		b.codes[mcc] = true
	}
	if word != "" && len(b.words) < 8 {
		b.words[word] = true
	}
	if _, named := ledger.MCCName(mcc); named {
		a.byMCC[mcc] = b
	}
	return b
}

func (a *Aggregator) merchant(name string) *Bucket {
	b := a.merchants[name]
	if b == nil {
		if len(a.merchants) >= maxMerchants {
			return a.otherMerchants()
		}
		label := name
		if label == "" {
			label = "Merchant not given"
		}
		b = newBucket(name, label)
		b.Filter = apiclient.TransactionFilter{SearchKey: name}
		a.merchants[name] = b
	}
	return b
}

func (a *Aggregator) otherMerchants() *Bucket {
	const key = "\x00other"
	b := a.merchants[key]
	if b == nil {
		b = newBucket(key, "Other merchants")
		a.merchants[key] = b
	}
	return b
}

// Currencies are the currencies spent in, the most used first.
func (a *Aggregator) Currencies() []string {
	cur := a.Spent.Totals.Currencies()
	for _, c := range append(a.Declined.Totals.Currencies(), a.Refunded.Totals.Currencies()...) {
		if a.Spent.Totals[c] == nil && !contains(cur, c) {
			cur = append(cur, c)
		}
	}
	count := func(c string) int {
		n := 0
		for _, b := range []*Bucket{a.Spent, a.Declined, a.Refunded} {
			if t := b.Totals[c]; t != nil {
				n += t.Count()
			}
		}
		return n
	}
	sort.SliceStable(cur, func(i, j int) bool { return count(cur[i]) > count(cur[j]) })
	return cur
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Months are the months spent in, in currency, oldest first: the last
// limit of them.
func (a *Aggregator) Months(currency string, limit int) []*Bucket {
	out := inCurrency(a.months, currency)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	if len(out) > limit {
		out = out[len(out)-limit:]
	}
	return out
}

// Categories are the categories spent on in currency, the largest first.
func (a *Aggregator) Categories(currency string, limit int) []*Bucket {
	out := largest(inCurrency(a.categories, currency), currency, limit)
	for _, b := range out {
		b.Filter = categoryFilter(b)
	}
	return out
}

// Merchants are the merchants spent at in currency, the largest first.
func (a *Aggregator) Merchants(currency string, limit int) []*Bucket {
	return largest(inCurrency(a.merchants, currency), currency, limit)
}

// categoryFilter lists a category's transactions: by its one MCC (the
// gateway's search takes a code), else by the gateway's category words.
func categoryFilter(b *Bucket) apiclient.TransactionFilter {
	if len(b.codes) == 1 {
		for code := range b.codes {
			return apiclient.TransactionFilter{SearchKey: code}
		}
	}
	var words []string
	for w := range b.words {
		words = append(words, strings.ToUpper(w))
	}
	sort.Strings(words)
	return apiclient.TransactionFilter{MCCCategories: words}
}

func inCurrency(buckets map[string]*Bucket, currency string) []*Bucket {
	var out []*Bucket
	for _, b := range buckets {
		if b.Totals[currency] != nil {
			out = append(out, b)
		}
	}
	return out
}

// largest sorts by the sum in currency, the largest first (ties by
// label), and keeps limit. The order reads each sum once, as a float:
// an order, never an amount shown.
func largest(out []*Bucket, currency string, limit int) []*Bucket {
	size := make(map[*Bucket]float64, len(out))
	for _, b := range out {
		size[b] = b.Totals[currency].Float()
	}
	sort.Slice(out, func(i, j int) bool {
		if x, y := size[out[i]], size[out[j]]; x != y {
			return x > y
		}
		return out[i].Label < out[j].Label
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}
