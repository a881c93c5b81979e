package ui

import (
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// FitLine makes one line exactly w cells wide: it cuts what is too long and
// pads with spaces what is too short. Width is measured in cells (ansi), not
// bytes, so wide characters and styles count right.
func FitLine(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := cellWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// FitMarked is FitLine for a line whose end matters: one that is cut ends
// with "…", so a cut id or time never reads as whole.
func FitMarked(s string, w int) string {
	return FitLine(ansi.Truncate(s, w, "…"), w)
}

// CellWidth is the width of s in cells, as ansi.StringWidth measures it,
// with a fast path for text made of one-cell characters and styles: a
// frame measures its text on every key press.
func CellWidth(s string) int { return cellWidth(s) }

// cellWidth is ansi.StringWidth with a fast path for what frames are made
// of: styled text whose characters are each one cell wide. It skips CSI
// and OSC sequences and counts runes from oneCell; anything else (wide
// characters, combining marks, emoji) falls back to ansi.StringWidth.
func cellWidth(s string) int {
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			n++
			i++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[': // CSI ... final byte
			j := i + 2
			for j < len(s) && (s[j] < 0x40 || s[j] > 0x7e) {
				j++
			}
			if j == len(s) {
				return ansi.StringWidth(s)
			}
			i = j + 1
		case c == 0x1b && i+1 < len(s) && s[i+1] == ']': // OSC ... BEL or ST
			j := strings.IndexAny(s[i+2:], "\a\x1b")
			if j < 0 {
				return ansi.StringWidth(s)
			}
			i += 2 + j + 1
			if s[i-1] == 0x1b {
				i++ // ESC \
			}
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !oneCell(r) {
				return ansi.StringWidth(s)
			}
			n++
			i += size
		default:
			return ansi.StringWidth(s)
		}
	}
	return n
}

// oneCell reports whether r is always exactly one cell wide and never
// combines with its neighbours: Latin letters, punctuation, arrows, box
// drawing, block elements, geometric shapes, check and cross marks.
func oneCell(r rune) bool {
	switch {
	case r >= 0xa0 && r <= 0x2ff,
		r >= 0x2010 && r <= 0x2027, r >= 0x2030 && r <= 0x205e,
		r >= 0x2190 && r <= 0x21ff,
		r >= 0x2500 && r <= 0x25ff,
		r == 0x2713, r == 0x2717:
		// soft hyphen: zero width; ◽ ◾: emoji, two cells
		return r != 0xad && r != 0x25fd && r != 0x25fe
	}
	return false
}

// spaces is blank text to pad with, written by slicing: 64 spaces, a
// constant, as a repeated string would be built before main.
const spaces = "                                                                "

// WriteSpaces writes n spaces into b (nothing when n <= 0).
func WriteSpaces(b *strings.Builder, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		b.WriteString(spaces[:k])
		n -= k
	}
}

// WriteFitted writes s cut or padded to exactly w cells into b, as
// FitLine returns it: a frame built in one buffer fits its lines without a
// string each, and text that fits (the usual case) costs no allocation.
func WriteFitted(b *strings.Builder, s string, w int) {
	if w <= 0 {
		return
	}
	sw := cellWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "")
		sw = ansi.StringWidth(s)
	}
	b.WriteString(s)
	WriteSpaces(b, w-sw)
}

// WrapStyle splits a style's rendering around its text, so many lines can
// be styled by concatenation instead of a lipgloss render each. It suits
// styles made of attributes and colours only (no padding, width or
// border), which is what the theme's text styles are.
func WrapStyle(s lipgloss.Style) (pre, post string) {
	const mark = "\x00"
	out := s.Render(mark)
	if i := strings.Index(out, mark); i >= 0 {
		return out[:i], out[i+len(mark):]
	}
	return "", ""
}

// FitBlock makes a block exactly w x h: each line fitted, missing lines
// blank, extra lines dropped. Screens and the root use it so that a frame is
// always the size of the terminal.
func FitBlock(s string, w, h int) string {
	if h <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(len(s) + h*max(w, 0))
	for i := 0; i < h; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		line := ""
		if s != "" {
			line, s, _ = strings.Cut(s, "\n")
		}
		WriteFitted(&b, line, w)
	}
	return b.String()
}

// overlay draws box over base (both line blocks), its top-left corner at
// column x and row y, keeping the base visible around it.
func overlay(base, box string, x, y int) string {
	bl := strings.Split(base, "\n")
	for i, line := range strings.Split(box, "\n") {
		row := y + i
		if row < 0 || row >= len(bl) {
			continue
		}
		under := bl[row]
		lw := ansi.StringWidth(line)
		left := FitLine(ansi.Truncate(under, x, ""), x)
		right := ansi.TruncateLeft(under, x+lw, "")
		bl[row] = left + "\x1b[m" + line + "\x1b[m" + right
	}
	return strings.Join(bl, "\n")
}
