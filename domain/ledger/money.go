package ledger

import (
	"strconv"
	"strings"

	"cardterm/apiclient"
)

// Gateways write an amount many ways, and MoneyAt is the one reader of
// them all: nested ({"value"|"amount", "currency"}), one amount per
// currency ({"EUR": "53.63"}), flat beside a currency ("amount" and
// "currency", "transactionAmount" and "transactionCurrency",
// "amountInBillingCurrency" and "billingCurrency"), in minor units with an
// exponent ({"minorUnits": 5363, "exponent": 2}), as a string or a JSON
// number, signed or not. The value is kept as exact decimal text (never a
// float): the list, the detail, the statements and the insights all read
// an amount through it, so an amount is drawn and added up the same way in
// every shape.

// NoAmount is what the screens and statements say for a record that gives
// no amount.
const NoAmount = "amount not given"

// Money is an amount as a record gave it, read exactly.
type Money struct {
	// Value is the magnitude as decimal text ("53.63"): no sign, minor
	// units already scaled by their exponent.
	Value string
	// Currency is the currency's code as sent ("" when the record gave
	// none).
	Currency string
	// Negative says the value was written with a minus sign.
	Negative bool
}

// valueLeaves name an amount's value inside an object; minorLeaves its
// value in minor units, whose exponent is under exponentLeaves (else the
// currency's usual one); currencyLeaves its currency.
var (
	valueLeaves    = []string{"value", "amount", "total", "sum"}
	minorLeaves    = []string{"minorUnits", "amountMinor", "valueMinor", "minor", "amountInMinorUnits", "valueInMinorUnits", "units", "cents"}
	exponentLeaves = []string{"exponent", "scale", "decimals", "decimalPlaces", "precision", "minorUnit"}
	currencyLeaves = []string{"currency", "currencyCode", "ccy"}
)

// MoneyAt reads the amount under the first of names the record carries,
// in any shape above. ok is false when none holds an amount: the caller
// says NoAmount.
func MoneyAt(fields []apiclient.RawField, names ...string) (Money, bool) {
	for _, name := range names {
		if m, ok := nestedMoney(fields, name); ok {
			return m, true
		}
		if m, ok := flatMoney(fields, name); ok {
			return m, true
		}
	}
	return Money{}, false
}

// nestedMoney reads an object under name: a value or minor units with
// their currency, or a single amount per currency.
func nestedMoney(fields []apiclient.RawField, name string) (Money, bool) {
	var value, minor, exponent, currency string
	var perCurrency []Money
	for _, f := range fields {
		parent, leaf, ok := CutLast(f.Path)
		if !ok || !strings.EqualFold(parent, name) {
			continue
		}
		switch {
		case oneOf(leaf, valueLeaves):
			value = f.Value
		case oneOf(leaf, minorLeaves):
			minor = f.Value
		case oneOf(leaf, exponentLeaves):
			exponent = f.Value
		case oneOf(leaf, currencyLeaves):
			currency = f.Value
		case isCurrencyCode(leaf):
			if m, ok := ParseAmount(f.Value); ok {
				m.Currency = leaf
				perCurrency = append(perCurrency, m)
			}
		}
	}
	if value != "" {
		if m, ok := ParseAmount(value); ok {
			m.Currency = currency
			return m, true
		}
	}
	if minor != "" {
		if m, ok := minorUnits(minor, exponent, currency); ok {
			return m, true
		}
	}
	if len(perCurrency) == 1 {
		return perCurrency[0], true
	}
	return Money{}, false
}

// flatMoney reads a value sent as the member name itself, its currency a
// sibling: "transactionAmount" beside "transactionCurrency",
// "amountInBillingCurrency" beside "billingCurrency", "amount" beside
// "currency"; a name in minor units ("amountMinor") takes a sibling
// exponent.
func flatMoney(fields []apiclient.RawField, name string) (Money, bool) {
	value, found := leafValue(fields, name)
	if !found {
		return Money{}, false
	}
	parent, leaf, _ := CutLast(name)
	sibling := func(leaf string) string {
		if parent != "" {
			leaf = parent + "." + leaf
		}
		v, _ := leafValue(fields, leaf)
		return v
	}
	currency := ""
	for _, candidate := range currencySiblings(leaf) {
		if currency = sibling(candidate); currency != "" {
			break
		}
	}
	if isMinorName(leaf) {
		exponent := sibling(leaf + "Exponent")
		if exponent == "" {
			exponent = sibling("exponent")
		}
		return minorUnits(value, exponent, currency)
	}
	m, ok := ParseAmount(value)
	m.Currency = currency
	return m, ok
}

// currencySiblings are the names a flat amount's currency goes by, the
// most particular first.
func currencySiblings(leaf string) []string {
	var out []string
	base := leaf
	for _, suffix := range []string{"InMinorUnits", "Minor", "Cents"} {
		base = strings.TrimSuffix(base, suffix)
	}
	if rest, ok := strings.CutPrefix(base, "amountIn"); ok && rest != "" { // amountInBillingCurrency
		out = append(out, lowerFirst(rest), lowerFirst(strings.TrimSuffix(rest, "Currency"))+"Currency")
	}
	if stem, ok := strings.CutSuffix(base, "Amount"); ok && stem != "" { // billingAmount
		out = append(out, stem+"Currency")
	}
	return append(out, base+"Currency", "currency", "currencyCode")
}

func isMinorName(leaf string) bool {
	return strings.HasSuffix(leaf, "Minor") || strings.HasSuffix(leaf, "InMinorUnits") || strings.HasSuffix(leaf, "Cents")
}

// leafValue is the value of the member at path, when it is a scalar.
func leafValue(fields []apiclient.RawField, path string) (string, bool) {
	for _, f := range fields {
		if strings.EqualFold(f.Path, path) && f.Value != "null" {
			return f.Value, true
		}
	}
	return "", false
}

// ParseAmount reads a decimal amount written as text or a JSON number:
// "53.63", 53.63, "+53.63", "-53.63". Anything else (a date, a flag,
// "1e3") is not an amount.
func ParseAmount(text string) (Money, bool) {
	text = strings.TrimSpace(text)
	m := Money{}
	switch {
	case strings.HasPrefix(text, "-"):
		m.Negative, text = true, text[1:]
	case strings.HasPrefix(text, "+"):
		text = text[1:]
	}
	if text == "" || text[0] == '-' || text[0] == '+' {
		return Money{}, false
	}
	if _, err := apiclient.CompareDecimal(text, "0"); err != nil {
		return Money{}, false
	}
	if strings.Trim(text, "0.") == "" {
		m.Negative = false // -0.00 is no debit
	}
	m.Value = text
	return m, true
}

// minorUnits reads an integer count of minor units, scaled by exponent
// (else the currency's usual number of decimals).
func minorUnits(units, exponent, currency string) (Money, bool) {
	m, ok := ParseAmount(units)
	if !ok || strings.Contains(m.Value, ".") {
		return Money{}, false
	}
	places := currencyDecimals(currency)
	if exponent != "" {
		n, err := strconv.Atoi(strings.TrimSpace(exponent))
		if err != nil || n < 0 || n > 18 {
			return Money{}, false
		}
		places = n
	}
	digits := strings.TrimLeft(m.Value, "0")
	if len(digits) <= places {
		digits = strings.Repeat("0", places-len(digits)+1) + digits
	}
	if places > 0 {
		digits = digits[:len(digits)-places] + "." + digits[len(digits)-places:]
	}
	m.Value, m.Currency = digits, currency
	return m, true
}

// currencyDecimals is the usual number of decimals of a currency (ISO
// 4217): 2, except those below.
func currencyDecimals(currency string) int {
	switch strings.ToUpper(currency) {
	case "JPY", "KRW", "VND", "CLP", "ISK", "XAF", "XOF", "UGX", "PYG", "RWF":
		return 0
	case "BHD", "KWD", "OMR", "JOD", "TND", "LYD", "IQD":
		return 3
	}
	return 2
}

func oneOf(s string, names []string) bool {
	for _, n := range names {
		if strings.EqualFold(s, n) {
			return true
		}
	}
	return false
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
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

// direction reads the words gateways use for which way money went (in
// lower case) as apiclient.TxCredit or TxDebit; ok is false for another.
func direction(word string) (sign string, ok bool) {
	switch word {
	case "in", "incoming", "credit", "received", "refund", "+", "cr":
		return apiclient.TxCredit, true
	case "out", "outgoing", "debit", "sent", "purchase", "-", "dr":
		return apiclient.TxDebit, true
	}
	return "", false
}

// SignOf reads a record's sign (apiclient.TxDebit or TxCredit) from the
// first of names it carries whose value is a direction ("out", "CREDIT").
func SignOf(fields []apiclient.RawField, names ...string) (string, bool) {
	for _, name := range names {
		for _, f := range fields {
			if strings.EqualFold(f.Path, name) {
				if sign, ok := direction(strings.ToLower(strings.TrimSpace(f.Value))); ok {
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
