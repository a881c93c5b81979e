package apiclient

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// Decimal is a money amount kept as the decimal text the gateway sent
// (never a float); a JSON number is read as its literal text.
type Decimal string

// UnmarshalJSON accepts a string or a number; anything else reads as "".
func (d *Decimal) UnmarshalJSON(data []byte) error {
	data = bytes.TrimSpace(data)
	var s string
	if json.Unmarshal(data, &s) == nil {
		*d = Decimal(s)
		return nil
	}
	var n json.Number
	if json.Unmarshal(data, &n) == nil {
		*d = Decimal(n.String())
		return nil
	}
	*d = ""
	return nil
}

// ErrNotDecimal is returned by the decimal helpers for text that is not a
// plain decimal number.
var ErrNotDecimal = errors.New("not a plain decimal number")

// decimal is a fixed-point number: value / 10^scale, exact.
type decimal struct {
	neg    bool
	digits string // integer digits of value, no leading zeros ("" = 0)
	scale  int
}

// parseDecimal reads "-12.345" style text exactly.
func parseDecimal(s string) (decimal, error) {
	s = strings.TrimSpace(s)
	var d decimal
	if strings.HasPrefix(s, "-") {
		d.neg, s = true, s[1:]
	} else {
		s = strings.TrimPrefix(s, "+")
	}
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || !allDigits(whole) || (dot && (frac == "" || !allDigits(frac))) {
		return decimal{}, fmt.Errorf("%q: %w", s, ErrNotDecimal)
	}
	d.digits = strings.TrimLeft(whole+frac, "0")
	d.scale = len(frac)
	if d.digits == "" {
		d.neg = false
	}
	return d, nil
}

// rescale pads a and b to the same scale and returns their digit strings,
// left-padded to the same length, so they compare as strings.
func rescale(a, b decimal) (string, string, int) {
	scale := max(a.scale, b.scale)
	da := a.digits + strings.Repeat("0", scale-a.scale)
	db := b.digits + strings.Repeat("0", scale-b.scale)
	if a.digits == "" {
		da = ""
	}
	if b.digits == "" {
		db = ""
	}
	n := max(len(da), len(db))
	return strings.Repeat("0", n-len(da)) + da, strings.Repeat("0", n-len(db)) + db, scale
}

func cmpAbs(a, b decimal) int {
	x, y, _ := rescale(a, b)
	return strings.Compare(x, y)
}

func cmpDec(a, b decimal) int {
	switch {
	case a.neg && !b.neg:
		return -1
	case !a.neg && b.neg:
		return 1
	case a.neg:
		return -cmpAbs(a, b)
	}
	return cmpAbs(a, b)
}

// addDigits and subDigits work on equal-length digit strings.
func addDigits(x, y string) string {
	out := make([]byte, len(x)+1)
	carry := 0
	for i := len(x) - 1; i >= 0; i-- {
		s := int(x[i]-'0') + int(y[i]-'0') + carry
		out[i+1] = byte('0' + s%10)
		carry = s / 10
	}
	out[0] = byte('0' + carry)
	return string(out)
}

func subDigits(x, y string) string { // x >= y
	out := make([]byte, len(x))
	borrow := 0
	for i := len(x) - 1; i >= 0; i-- {
		s := int(x[i]-'0') - int(y[i]-'0') - borrow
		borrow = 0
		if s < 0 {
			s += 10
			borrow = 1
		}
		out[i] = byte('0' + s)
	}
	return string(out)
}

func addDec(a, b decimal) decimal {
	x, y, scale := rescale(a, b)
	if a.neg == b.neg {
		return decimal{neg: a.neg, digits: strings.TrimLeft(addDigits(x, y), "0"), scale: scale}
	}
	if strings.Compare(x, y) >= 0 {
		r := strings.TrimLeft(subDigits(x, y), "0")
		return decimal{neg: a.neg && r != "", digits: r, scale: scale}
	}
	r := strings.TrimLeft(subDigits(y, x), "0")
	return decimal{neg: b.neg && r != "", digits: r, scale: scale}
}

// String writes the number with trailing zeros trimmed but at least two
// fraction digits, as money reads ("400.00", "99.55", "0.00015").
func (d decimal) String() string {
	digits := d.digits
	if len(digits) <= d.scale {
		digits = strings.Repeat("0", d.scale-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-d.scale], digits[len(digits)-d.scale:]
	frac = strings.TrimRight(frac, "0")
	for len(frac) < 2 {
		frac += "0"
	}
	s := whole
	if frac != "" {
		s += "." + frac
	}
	if d.neg {
		s = "-" + s
	}
	return s
}

// parseDecimalPair parses the two operands of a decimal operation; the
// error is the first operand's that fails.
func parseDecimalPair(a, b string) (x, y decimal, err error) {
	if x, err = parseDecimal(a); err != nil {
		return decimal{}, decimal{}, err
	}
	if y, err = parseDecimal(b); err != nil {
		return decimal{}, decimal{}, err
	}
	return x, y, nil
}

// CompareDecimal compares two decimal texts exactly: -1, 0 or +1.
func CompareDecimal(a, b string) (int, error) {
	x, y, err := parseDecimalPair(a, b)
	if err != nil {
		return 0, err
	}
	return cmpDec(x, y), nil
}

// AddDecimal is a + b, exactly, as decimal text.
func AddDecimal(a, b string) (string, error) {
	x, y, err := parseDecimalPair(a, b)
	if err != nil {
		return "", err
	}
	return addDec(x, y).String(), nil
}

// SubDecimal is a - b, exactly, as decimal text (e.g. the amount that
// arrives: amount minus fee).
func SubDecimal(a, b string) (string, error) {
	x, y, err := parseDecimalPair(a, b)
	if err != nil {
		return "", err
	}
	y.neg = !y.neg && y.digits != ""
	return addDec(x, y).String(), nil
}
