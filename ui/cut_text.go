package ui

import "unicode/utf8"

// MaxMessageText is the longest message, in characters, a notice or a
// form's problem line keeps. Messages are cut once, when they arrive, so
// what a frame costs never depends on what a gateway or a peer sent.
const MaxMessageText = 500

// CutText is s cut to n characters, the last of them "…"; shorter text is
// returned as it is.
func CutText(s string, n int) string {
	if len(s) <= n || n <= 0 {
		return s
	}
	count := 0
	for i := range s {
		if count == n-1 {
			if utf8.RuneCountInString(s[i:]) == 1 {
				return s // exactly n characters
			}
			return s[:i] + "…"
		}
		count++
	}
	return s
}
