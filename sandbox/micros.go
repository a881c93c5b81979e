package sandbox

import (
	"fmt"
	"strconv"
	"strings"
)

// Money in the sandbox is counted in micro-USDC (int64), never a float.

// parseMicros reads a positive decimal USDC amount (at most 6 decimals)
// into micro-units; money never passes through a float.
func parseMicros(s string) (int64, error) {
	whole, frac, dot := strings.Cut(s, ".")
	if whole == "" || !digitsOnly(whole) || (dot && (frac == "" || !digitsOnly(frac))) {
		return 0, fmt.Errorf("%q is not a decimal amount such as 12.50", s)
	}
	if len(frac) > 6 {
		return 0, fmt.Errorf("%q has more than 6 decimal places", s)
	}
	whole = strings.TrimLeft(whole, "0")
	if len(whole) > 12 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	w, _ := strconv.ParseInt("0"+whole, 10, 64)
	f, _ := strconv.ParseInt((frac + "000000")[:6], 10, 64)
	v := w*1_000_000 + f
	if v <= 0 {
		return 0, fmt.Errorf("amount must be greater than zero")
	}
	return v, nil
}

// formatMicros writes micro-USDC as a decimal with 2 to 6 decimals.
func formatMicros(v int64) string {
	neg := v < 0
	if neg {
		v = -v
	}
	frac := strings.TrimRight(fmt.Sprintf("%06d", v%1_000_000), "0")
	for len(frac) < 2 {
		frac += "0"
	}
	s := fmt.Sprintf("%d.%s", v/1_000_000, frac)
	if neg {
		s = "-" + s
	}
	return s
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
