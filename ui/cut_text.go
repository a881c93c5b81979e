package ui

import "unicode/utf8"

// MaxMessageText is the longest message, in characters, a notice or a
// form's problem line keeps. Messages are cut once, when they arrive, so
// what a frame costs never depends on what a gateway or a peer sent.
const MaxMessageText = 500

// CutText is s cut to n characters, the last of them "…"; shorter text is
// returned as it is. It reads at most n characters of s.
func CutText(s string, n int) string {
	if len(s) <= n || n <= 0 {
		return s
	}
	count := 0
	for i := range s {
		if count == n-1 {
			if _, size := utf8.DecodeRuneInString(s[i:]); i+size == len(s) {
				return s // exactly n characters
			}
			return s[:i] + "…"
		}
		count++
	}
	return s
}

// maxCellBytes is the most of a cell's text a table or a detail pane
// reads on a frame: far wider than any terminal, so only text no one can
// read whole is cut, and a frame costs the same whatever a gateway sent.
const maxCellBytes = 1024

// ClipLong is s cut to maxCellBytes (at a character's start) and ended
// with "…"; shorter text is returned as it is. It looks at no more than
// that many bytes: the table clips every cell with it, and screens that
// draw a gateway's text outside a table (a detail pane) do the same.
func ClipLong(s string) string {
	if len(s) <= maxCellBytes {
		return s
	}
	end := maxCellBytes
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end] + "…"
}
