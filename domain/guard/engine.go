package guard

import (
	"math/big"
	"sort"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
)

// Decision is what a rule does about a transaction.
type Decision struct {
	Rule Rule
	// Transaction is the payment that made the rule fire.
	Transaction TransactionSeen
	// Action is what is done: Notify, or Freeze (asking first unless
	// Alone). In read-only mode a freeze rule only notifies and Why says
	// so.
	Action string
	Alone  bool
	Why    string
}

// TransactionSeen is what a decision keeps of its transaction.
type TransactionSeen struct {
	ID, Merchant, Amount, Status string
	At                           time.Time
}

// Engine runs rules over transactions in the order they happened. It
// keeps, per rule, the declines counted in its window; after a rule
// fires its count starts again, so the decline after a freeze sends
// nothing more.
type Engine struct {
	rules    Rules
	readOnly bool
	declines [][]time.Time
}

// NewEngine runs rules; readOnly turns every freeze into a notice.
func NewEngine(rules Rules, readOnly bool) *Engine {
	return &Engine{rules: rules, readOnly: readOnly, declines: make([][]time.Time, len(rules.Rules))}
}

// Observe judges one transaction (read in its gateway's shape) and says
// what each rule that fires does.
func (e *Engine) Observe(x *apiclient.Transaction) []Decision {
	at, ok := ledger.ParseTime(x.DateTime)
	if !ok || x.Sign == apiclient.TxCredit {
		return nil
	}
	var out []Decision
	for i, r := range e.rules.Rules {
		if !e.matches(r, x) {
			continue
		}
		why := ""
		if r.Declines > 0 {
			if x.Status != apiclient.TxDeclined {
				continue
			}
			kept := e.declines[i][:0]
			for _, t := range e.declines[i] {
				if at.Sub(t) < r.Within {
					kept = append(kept, t)
				}
			}
			e.declines[i] = append(kept, at)
			if len(e.declines[i]) < r.Declines {
				continue
			}
			e.declines[i] = e.declines[i][:0]
			why = declinesText(r)
		}
		d := Decision{Rule: r, Transaction: seen(x, at), Action: r.Action, Alone: r.Alone, Why: why}
		if d.Action == Freeze && e.readOnly {
			d.Action, d.Why = Notify, strings.TrimPrefix(why+"; read-only mode: would freeze the card", "; ")
		}
		out = append(out, d)
	}
	return out
}

func declinesText(r Rule) string {
	if r.Declines == 1 {
		return "a decline"
	}
	return itoa(r.Declines) + " declines within " + r.Within.String()
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

func seen(x *apiclient.Transaction, at time.Time) TransactionSeen {
	amount := strings.TrimSpace(string(x.TransactionAmount) + " " + x.TransactionCurrency)
	return TransactionSeen{ID: x.ID, Merchant: x.MerchantNameLocation, Amount: amount, Status: x.Status, At: at.UTC()}
}

// matches says the transaction is one the rule is about (its decline
// count aside).
func (e *Engine) matches(r Rule, x *apiclient.Transaction) bool {
	if r.Merchant != "" && !strings.Contains(strings.ToLower(x.MerchantNameLocation), strings.ToLower(r.Merchant)) {
		return false
	}
	if r.Category != "" && !strings.EqualFold(r.Category, x.MCCCategory) && !strings.EqualFold(r.Category, ledger.CategoryOf(x.MCC, x.MCCCategory)) {
		return false
	}
	country := CountryOf(x.MerchantNameLocation)
	if r.Country != "" && country != r.Country {
		return false
	}
	if r.Abroad && (country == "" || country == e.rules.Home) {
		return false
	}
	return r.AmountOver == "" || over(r, x)
}

// over says the transaction's amount is more than the rule's: in the
// rule's currency when it names one (the billed amount or the amount
// itself, whichever is in it), else the billed amount.
func over(r Rule, x *apiclient.Transaction) bool {
	value := ""
	switch {
	case r.Currency == "":
		value = string(x.BillingAmount)
		if value == "" {
			value = string(x.TransactionAmount)
		}
	case strings.EqualFold(x.BillingCurrency, r.Currency):
		value = string(x.BillingAmount)
	case strings.EqualFold(x.TransactionCurrency, r.Currency):
		value = string(x.TransactionAmount)
	}
	amount, ok := new(big.Rat).SetString(strings.TrimPrefix(value, "-"))
	limit, _ := new(big.Rat).SetString(r.AmountOver)
	return ok && value != "" && amount.Cmp(limit) > 0
}

// DryRun is what the rules would have done over a history (in any
// order): each decision, oldest first, as if the app had run all along
// and every freeze had been agreed to.
func DryRun(rules Rules, history []apiclient.Transaction) []Decision {
	order := make([]*apiclient.Transaction, 0, len(history))
	times := make(map[*apiclient.Transaction]time.Time, len(history))
	for i := range history {
		x := &history[i]
		if at, ok := ledger.ParseTime(x.DateTime); ok {
			order = append(order, x)
			times[x] = at
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return times[order[i]].Before(times[order[j]]) })
	e := NewEngine(rules, false)
	var out []Decision
	for _, x := range order {
		out = append(out, e.Observe(x)...)
	}
	return out
}
