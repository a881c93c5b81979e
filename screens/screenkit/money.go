package screenkit

import (
	"strings"

	"cardterm/apiclient"
)

// Gateways write an amount several ways: a decimal beside a currency
// ("transactionAmount", "transactionCurrency"), nested ({"value",
// "currency"}), or given per currency ({"EUR": "53.63"}); and a record's
// sign as a sign ("DEBIT"), a direction ("out") or a type. MoneyAt and
// SignOf find them in whichever shape a record came, so an amount is drawn
// whole (sign, value, currency) in every shape.

// Money is an amount and its currency as a record gave them.
type Money struct{ Value, Currency string }

// MoneyAt reads the amount under the first of names the record carries:
// {value|amount, currency} or a single {CURRENCY: value}. ok is false when
// none holds an amount.
func MoneyAt(fields []apiclient.RawField, names ...string) (Money, bool) {
	for _, name := range names {
		var nested Money
		var perCurrency []Money
		for _, f := range fields {
			parent, leaf, ok := cutLast(f.Path)
			if !ok || !strings.EqualFold(parent, name) {
				continue
			}
			switch {
			case strings.EqualFold(leaf, "value") || strings.EqualFold(leaf, "amount"):
				nested.Value = f.Value
			case strings.EqualFold(leaf, "currency"):
				nested.Currency = f.Value
			case isCurrencyCode(leaf) && AmountValue.fits(f.Value):
				perCurrency = append(perCurrency, Money{Value: f.Value, Currency: leaf})
			}
		}
		switch {
		case nested.Value != "" && AmountValue.fits(nested.Value):
			return nested, true
		case len(perCurrency) == 1:
			return perCurrency[0], true
		}
	}
	return Money{}, false
}

// isCurrencyCode reports a currency's code as a key: 3 to 5 letters
// ("EUR", "usdc").
func isCurrencyCode(s string) bool {
	if len(s) < 3 || len(s) > 5 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return true
}

// directions are the words gateways use for which way money went.
var directions = map[string]string{
	"in": apiclient.TxCredit, "incoming": apiclient.TxCredit, "credit": apiclient.TxCredit, "received": apiclient.TxCredit, "refund": apiclient.TxCredit,
	"out": apiclient.TxDebit, "outgoing": apiclient.TxDebit, "debit": apiclient.TxDebit, "sent": apiclient.TxDebit, "purchase": apiclient.TxDebit,
}

// SignOf reads a record's sign (apiclient.TxDebit or TxCredit) from the
// first of names it carries whose value is a direction ("out", "CREDIT").
func SignOf(fields []apiclient.RawField, names ...string) (string, bool) {
	for _, name := range names {
		for _, f := range fields {
			if strings.EqualFold(f.Path, name) {
				if sign, ok := directions[strings.ToLower(strings.TrimSpace(f.Value))]; ok {
					return sign, true
				}
			}
		}
	}
	return "", false
}

// FieldAt is the value of the first of names the record carries, "" when
// none.
func FieldAt(fields []apiclient.RawField, names ...string) string {
	for _, name := range names {
		for _, f := range fields {
			if strings.EqualFold(f.Path, name) && f.Value != "" && f.Value != "null" {
				return f.Value
			}
		}
	}
	return ""
}
