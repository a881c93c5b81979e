package ledger

import (
	"math/big"
	"sort"
	"strings"

	"cardterm/ui/sanitize"
)

// Total adds amounts of one currency exactly: decimal text in, decimal
// text out, never a float. It counts in units of its finest scale seen
// (an int64 while the sum fits, math/big past that), so adding 100,000
// amounts costs a parse and an addition each.
type Total struct {
	units int64
	scale int
	big   *big.Int // the sum, once it no longer fits units
	count int
}

// pow10 are the powers of ten an int64 holds, as constants the compiler
// lays out (nothing computed before main).
var pow10 = [19]int64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18}

// Add adds an amount given as unsigned decimal text ("53.63"), negative
// when negative is set; false (and nothing added) for text that is not a
// plain decimal.
func (t *Total) Add(value string, negative bool) bool {
	units, scale, ok := parseUnits(value)
	if !ok {
		if !t.addBig(value, negative) {
			return false
		}
		t.count++
		return true
	}
	return t.AddParsed(Parsed{units: units, scale: scale, text: value}, negative)
}

// Parsed is an amount read once (ParseUnits) to be added to several
// totals.
type Parsed struct {
	units int64
	scale int
	text  string
	big   bool // too large for units: added from text
}

// ParseUnits reads unsigned decimal text for AddParsed; false when it is
// not a plain decimal.
func ParseUnits(value string) (Parsed, bool) {
	units, scale, ok := parseUnits(value)
	if ok {
		return Parsed{units: units, scale: scale, text: value}, true
	}
	whole, frac, dot := strings.Cut(value, ".")
	if whole == "" || (dot && frac == "") || !allDigits(whole) || !allDigits(frac) {
		return Parsed{}, false
	}
	return Parsed{text: value, big: true}, true
}

// AddParsed adds an amount read by ParseUnits.
func (t *Total) AddParsed(p Parsed, negative bool) bool {
	if p.big {
		return t.addBig(p.text, negative) && t.counted()
	}
	units, scale, value := p.units, p.scale, p.text
	if negative {
		units = -units
	}
	if t.big == nil {
		if scale > t.scale {
			if !t.rescale(scale) {
				return t.addBig(value, negative) && t.counted()
			}
		}
		if scale < t.scale {
			k := t.scale - scale
			if hi, lo := mulOverflows(units, pow10[k]); !hi {
				units = lo
			} else {
				return t.addBig(value, negative) && t.counted()
			}
		}
		sum := t.units + units
		if (units > 0 && sum < t.units) || (units < 0 && sum > t.units) {
			return t.addBig(value, negative) && t.counted()
		}
		t.units = sum
		t.count++
		return true
	}
	return t.addBig(value, negative) && t.counted()
}

func (t *Total) counted() bool { t.count++; return true }

// Count is how many amounts were added.
func (t *Total) Count() int { return t.count }

// rescale moves the int64 sum to a finer scale; false when it would not
// fit (the caller switches to big).
func (t *Total) rescale(scale int) bool {
	if scale >= len(pow10) {
		return false
	}
	hi, lo := mulOverflows(t.units, pow10[scale-t.scale])
	if hi {
		return false
	}
	t.units, t.scale = lo, scale
	return true
}

// addBig adds value with math/big, moving the sum there first.
func (t *Total) addBig(value string, negative bool) bool {
	whole, frac, dot := strings.Cut(value, ".")
	if whole == "" || (dot && frac == "") || !allDigits(whole) || !allDigits(frac) {
		return false
	}
	if t.big == nil {
		t.big = big.NewInt(t.units)
	}
	scale := max(t.scale, len(frac))
	if scale > t.scale {
		t.big.Mul(t.big, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale-t.scale)), nil))
		t.scale = scale
	}
	n, ok := new(big.Int).SetString(whole+frac+strings.Repeat("0", scale-len(frac)), 10)
	if !ok {
		return false
	}
	if negative {
		n.Neg(n)
	}
	t.big.Add(t.big, n)
	return true
}

// parseUnits reads "53.63" as 5363 at scale 2; false when it is not a
// plain unsigned decimal or does not fit an int64.
func parseUnits(value string) (int64, int, bool) {
	if value == "" {
		return 0, 0, false
	}
	var units int64
	scale, dot := 0, false
	for i := 0; i < len(value); i++ {
		c := value[i]
		switch {
		case c == '.' && !dot && i > 0 && i < len(value)-1:
			dot = true
		case c >= '0' && c <= '9':
			if units > (1<<63-1-9)/10 {
				return 0, 0, false
			}
			units = units*10 + int64(c-'0')
			if dot {
				scale++
			}
		default:
			return 0, 0, false
		}
	}
	if scale >= len(pow10) {
		return 0, 0, false
	}
	return units, scale, true
}

// mulOverflows is a*b, hi true when it does not fit an int64.
func mulOverflows(a, b int64) (hi bool, lo int64) {
	if a == 0 || b == 0 {
		return false, 0
	}
	c := a * b
	if c/b != a {
		return true, 0
	}
	return false, c
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// String is the sum as decimal text at the finest scale added, "-" for a
// negative sum ("-1234.50", "0.00" before anything; at least 2 decimals).
func (t *Total) String() string {
	var digits string
	neg := false
	if t.big != nil {
		neg = t.big.Sign() < 0
		digits = new(big.Int).Abs(t.big).String()
	} else {
		u := t.units
		if u < 0 {
			neg, u = true, -u
		}
		digits = itoa64(u)
	}
	scale := t.scale
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-scale], digits[len(digits)-scale:]
	for len(frac) < 2 {
		frac += "0"
	}
	if neg {
		whole = "-" + whole
	}
	return whole + "." + frac
}

// Sign is -1, 0 or +1 as the sum is negative, zero or positive.
func (t *Total) Sign() int {
	if t.big != nil {
		return t.big.Sign()
	}
	switch {
	case t.units < 0:
		return -1
	case t.units > 0:
		return 1
	}
	return 0
}

// Float is the sum as a float, for drawing bars only (never for money
// shown or added).
func (t *Total) Float() float64 {
	f, _, _ := big.ParseFloat(t.String(), 10, 64, big.ToNearestEven)
	v, _ := f.Float64()
	return v
}

func itoa64(u int64) string {
	if u == 0 {
		return "0"
	}
	var buf [20]byte
	i := len(buf)
	for u > 0 {
		i--
		buf[i] = byte('0' + u%10)
		u /= 10
	}
	return string(buf[i:])
}

// Totals are sums per currency: amounts of different currencies are
// never added together.
type Totals map[string]*Total

// Add adds an amount to its currency's sum.
func (ts Totals) Add(currency, value string, negative bool) bool {
	t := ts[currency]
	if t == nil {
		t = &Total{}
		ts[currency] = t
	}
	return t.Add(value, negative)
}

// Currencies lists the currencies summed, sorted.
func (ts Totals) Currencies() []string {
	out := make([]string, 0, len(ts))
	for c := range ts {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// String writes every sum with its currency: "-1234.50 EUR, 12.00 USD".
func (ts Totals) String() string {
	parts := make([]string, 0, len(ts))
	for _, c := range ts.Currencies() {
		parts = append(parts, strings.TrimSpace(ts[c].String()+" "+CurrencyLabel(c)))
	}
	return strings.Join(parts, ", ")
}

// CurrencyLabel is a currency code as it may be shown: the gateway's text,
// sanitized and cut to sanitize.MaxCode characters (a code has no length
// limit of its own on the wire).
func CurrencyLabel(code string) string { return sanitize.Bounded(code, sanitize.MaxCode) }
