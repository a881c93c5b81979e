package sanitize

import "unicode/utf8"

// MaxCode bounds a code from outside with no natural length limit (a
// currency code: ISO 4217 has three letters, crypto tickers a few more).
const MaxCode = 12

// Bounded is Text cut to at most limit characters, the cut shown by a
// final "…": a field with no natural limit cannot push the rest of a
// line off the screen.
func Bounded(s string, limit int) string {
	s = Text(s)
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	n := 0
	for i := range s {
		if n == limit-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
