package sanitize

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Pastes into text fields: cleaned and kept, never dropped. A paste loses
// its escape sequences (colours from a terminal, a hyperlink, a clipboard
// write), its control characters, its bidi controls and zero-width
// characters (which would reorder or hide what the field shows and is
// sent) and invalid UTF-8; a one-line field takes its line breaks and tabs
// as spaces (a trailing line break, as copied with a line, is dropped).
// What was removed, and a paste cut to the field's limit, is said.

// PasteCleaning counts what Paste removed.
type PasteCleaning struct {
	Escapes, Controls, Invisible int
}

// Any reports whether anything was removed.
func (c PasteCleaning) Any() bool { return c.Escapes+c.Controls+c.Invisible > 0 }

// String says what was removed, e.g. "2 escape sequences and 1 control
// character".
func (c PasteCleaning) String() string {
	var parts []string
	add := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(c.Escapes, "escape sequence", "escape sequences")
	add(c.Controls, "control character", "control characters")
	add(c.Invisible, "invisible or bidi character", "invisible or bidi characters")
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// Paste is s as a text field takes it: escape sequences, controls,
// bidi and zero-width characters and invalid UTF-8 removed; \r\n and \r
// read as \n; line breaks and tabs kept for a multi-line field, spaces in
// a one-line one (its trailing line breaks dropped).
func Paste(s string, multiline bool) (string, PasteCleaning) {
	if !multiline {
		// The line break a copied line ends with is no part of it.
		s = strings.TrimRight(s, "\r\n")
	}
	var c PasteCleaning
	var b strings.Builder
	b.Grow(len(s))
	sc := scanner{s: s, unterminated: -1}
	for i := 0; i < len(s); {
		ch := s[i]
		if ch < utf8.RuneSelf {
			switch {
			case ch == 0x1b:
				if n := sc.escSeqLen(i); n > 0 {
					c.Escapes++
					i += n
					continue
				}
				c.Controls++
			case ch == '\r' || ch == '\n':
				if ch == '\r' && i+1 < len(s) && s[i+1] == '\n' {
					i++
				}
				if multiline {
					b.WriteByte('\n')
				} else {
					b.WriteByte(' ')
				}
			case ch == '\t':
				if multiline {
					b.WriteByte('\t')
				} else {
					b.WriteByte(' ')
				}
			case ch < 0x20 || ch == 0x7f:
				c.Controls++
			default:
				b.WriteByte(ch)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			c.Controls++
		case isC1(r):
			if n := sc.c1SeqLen(i, r, size); n > 0 {
				c.Escapes++
				i += n
				continue
			}
			c.Controls++
		case Invisible(r):
			c.Invisible++
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String(), c
}

// ShowInvisible draws a text field's view with each bidi control and
// zero-width character as a visible mark (<U+202E>), as Text shows
// them elsewhere: typed or given, they stay in the value, and the field
// shows they are there. A view without one is returned as it is.
func ShowInvisible(view string) string {
	if strings.IndexFunc(view, Invisible) < 0 {
		return view
	}
	var b strings.Builder
	b.Grow(len(view) + 16)
	for _, r := range view {
		if Invisible(r) {
			b.WriteString("<U+")
			writeHexUpper(&b, int(r), 4)
			b.WriteByte('>')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
