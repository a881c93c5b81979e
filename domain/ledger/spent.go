package ledger

import (
	"strings"

	"cardterm/apiclient"
)

// Spent is what a transaction took from the card as spending: its billed
// amount and currency (else its own), read exactly. ok is false for what
// is not spending: a decline, a reversal, money back, or no amount. The
// Spending screen, budgets and recurring payments all count the same.
func Spent(x *apiclient.Transaction) (amount Parsed, currency string, ok bool) {
	if x.Status == apiclient.TxDeclined || x.Status == apiclient.TxReverted || x.Sign == apiclient.TxCredit {
		return Parsed{}, "", false
	}
	value, currency := x.BillingAmount, x.BillingCurrency
	if value == "" {
		value, currency = x.TransactionAmount, x.TransactionCurrency
	}
	amount, ok = ParseUnits(strings.TrimPrefix(string(value), "-"))
	return amount, strings.ToUpper(strings.TrimSpace(currency)), ok
}

// Text is the amount as it was read ("53.63").
func (p Parsed) Text() string { return p.text }

// Units is the amount in units of 10^-scale ("53.63" at scale 4 is
// 536300); false when it has finer decimals or does not fit an int64.
func (p Parsed) Units(scale int) (int64, bool) {
	if p.big || p.scale > scale || scale >= len(pow10) {
		return 0, false
	}
	hi, lo := mulOverflows(p.units, pow10[scale-p.scale])
	return lo, !hi
}
