package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Shorten fits plain text into w cells with the one truncation rule: an
// id, address or hash (one long token) loses its middle, so both ends stay
// checkable ("0x9b22…c335"); other text loses its end. Either way the cut
// is marked with "…"; text that fits is returned as it is.
func Shorten(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw <= w {
		return s
	}
	if w < 7 || !isToken(s) {
		return ansi.Truncate(s, w, "…")
	}
	tail := (w - 1) / 2
	if len(s) > 2 && s[:2] == "0x" {
		// The 0x says nothing about which address it is: the hex after it
		// gets the head's share.
		tail = (w - 3) / 2
	}
	head := w - 1 - tail
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, sw-tail, "")
}

// isToken reports whether s reads as an identifier: one run of letters,
// digits and the punctuation ids are made of, long enough to be one.
func isToken(s string) bool {
	if len(s) < 12 {
		return false
	}
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r == '-', r == '_', r == ':', r == '.', r == '/', r == '=', r == '+':
		default:
			return false
		}
	}
	return true
}

// WriteShortASCII writes Shorten(s, w) for printable ASCII s wider than w,
// without building it: the cells a long list cuts on every frame cost no
// allocation.
func WriteShortASCII(b *strings.Builder, s string, w int) {
	if w < 7 || !isToken(s) {
		b.WriteString(s[:w-1])
		b.WriteString("…")
		return
	}
	tail := (w - 1) / 2
	if len(s) > 2 && s[:2] == "0x" {
		tail = (w - 3) / 2
	}
	head := w - 1 - tail
	b.WriteString(s[:head])
	b.WriteString("…")
	b.WriteString(s[len(s)-tail:])
}
