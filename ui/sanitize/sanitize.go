// Package sanitize makes text from outside safe to draw and to write to a
// terminal: a gateway's answer (Text, Multiline), a paste into a field
// (Paste), a field's view (ShowInvisible) and JSON the command line
// prints (JSON). It imports nothing of cardterm, so the command line and
// every screen apply the same rules.
package sanitize

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text makes a string from the gateway safe to draw on one line: complete
// escape sequences (CSI, OSC incl. hyperlinks and clipboard writes,
// DCS/SOS/PM/APC, two-character ESC sequences and their 8-bit C1 forms) are
// removed; other control characters are shown as visible escapes (\x07,
// \r, \n, \u0085; a tab becomes a space); bidi controls and zero-width
// characters are shown as <U+202E>; invalid UTF-8 becomes U+FFFD. A clean
// string is returned as it is, without allocating.
func Text(s string) string { return clean(s, false) }

// Multiline is Text for text that may span lines: it keeps \n.
func Multiline(s string) string { return clean(s, true) }

// Output is what may be written to a terminal as a whole stream (the
// command line's stdout and stderr): Multiline, keeping too the tab, the
// carriage return and the two sequences cardterm's own output uses to
// colour text and rewrite a progress line (CSI ... m and CSI K). Every other
// sequence (title, hyperlink, clipboard, DCS/APC, cursor moves) is removed.
// Text placed in such output passes Text first, which removes colour too.
func Output(s string) string {
	if isClean(s, true) {
		return s
	}
	return (&cleaner{multiline: true, output: true}).clean(s)
}

// isClean reports whether s needs no change.
func isClean(s string, multiline bool) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				if !(multiline && c == '\n') {
					return false
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		if isC1(r) || Invisible(r) {
			return false
		}
		i += size
	}
	return true
}

func isC1(r rune) bool { return r >= 0x80 && r <= 0x9f }

// Invisible reports the characters Text shows as <U+202E> marks: bidi
// controls, zero-width characters and line/paragraph separators, which
// change how the text around them looks or reads.
func Invisible(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f,
		r >= 0x202a && r <= 0x202e,
		r >= 0x2066 && r <= 0x2069,
		r >= 0x200b && r <= 0x200d,
		r == 0x2060, r == 0xfeff, r == 0x180e,
		r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

func clean(s string, multiline bool) string {
	if isClean(s, multiline) {
		return s
	}
	return (&cleaner{multiline: multiline}).clean(s)
}

// cleaner holds what a clean keeps: newlines (multiline), and for a whole
// output stream tabs, carriage returns and the colour and erase-line
// sequences too.
type cleaner struct{ multiline, output bool }

func (k *cleaner) clean(s string) string {
	multiline := k.multiline
	var b strings.Builder
	b.Grow(len(s) + 16)
	sc := scanner{s: s, unterminated: -1}
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b {
			if n := sc.escSeqLen(i); n > 0 {
				if k.output && isColourOrErase(s[i:i+n]) {
					b.WriteString(s[i : i+n])
				}
				i += n
				continue
			}
			b.WriteString(`\x1b`)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch {
			case c == '\n' && multiline:
				b.WriteByte('\n')
			case c == '\n':
				b.WriteString(`\n`)
			case (c == '\r' || c == '\t') && k.output:
				b.WriteByte(c)
			case c == '\r':
				b.WriteString(`\r`)
			case c == '\t':
				b.WriteByte(' ')
			case c < 0x20 || c == 0x7f:
				b.WriteString(`\x`)
				writeHex(&b, int(c), 2)
			default:
				b.WriteByte(c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case isC1(r):
			if n := sc.c1SeqLen(i, r, size); n > 0 {
				i += n
				continue
			}
			b.WriteString(`\u`)
			writeHex(&b, int(r), 4)
		case Invisible(r):
			b.WriteString("<U+")
			writeHexUpper(&b, int(r), 4)
			b.WriteByte('>')
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// isColourOrErase reports whether seq (a whole escape sequence) is SGR
// (ESC [ digits ; : m) or erase in line (ESC [ digits K).
func isColourOrErase(seq string) bool {
	if len(seq) < 3 || seq[1] != '[' {
		return false
	}
	final := seq[len(seq)-1]
	if final != 'm' && final != 'K' {
		return false
	}
	for i := 2; i < len(seq)-1; i++ {
		if c := seq[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

func writeHex(b *strings.Builder, v, digits int) {
	h := strconv.FormatInt(int64(v), 16)
	for k := len(h); k < digits; k++ {
		b.WriteByte('0')
	}
	b.WriteString(h)
}

func writeHexUpper(b *strings.Builder, v, digits int) {
	h := strings.ToUpper(strconv.FormatInt(int64(v), 16))
	for k := len(h); k < digits; k++ {
		b.WriteByte('0')
	}
	b.WriteString(h)
}

// scanner finds escape sequences in s. unterminated remembers where a string
// sequence ran to the end without a terminator: no later one can end
// either, so a string of many introducers stays linear, not quadratic.
type scanner struct {
	s            string
	unterminated int
}

// escSeqLen returns the length of the complete escape sequence starting with
// ESC at s[i], or 0 when it is incomplete (the ESC is then shown escaped and
// the rest drawn as plain text, which is harmless without the ESC).
func (sc *scanner) escSeqLen(i int) int {
	s := sc.s
	if i+1 >= len(s) {
		return 0
	}
	switch s[i+1] {
	case '[':
		if n := csiBodyLen(s, i+2); n > 0 {
			return 2 + n
		}
		return 0
	case ']', 'P', 'X', '^', '_':
		if n := sc.stringBodyLen(i + 2); n > 0 {
			return 2 + n
		}
		return 0
	}
	// nF / Fp / Fe / Fs: ESC, intermediates 0x20-0x2f, one final 0x30-0x7e.
	j := i + 1
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x2f {
		j++
	}
	if j < len(s) && s[j] >= 0x30 && s[j] <= 0x7e {
		return j + 1 - i
	}
	return 0
}

// c1SeqLen is escSeqLen for the 8-bit (UTF-8 encoded) C1 introducers.
func (sc *scanner) c1SeqLen(i int, r rune, size int) int {
	s := sc.s
	switch r {
	case 0x9b: // CSI
		if n := csiBodyLen(s, i+size); n > 0 {
			return size + n
		}
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f: // OSC, DCS, SOS, PM, APC
		if n := sc.stringBodyLen(i + size); n > 0 {
			return size + n
		}
	}
	return 0
}

// csiBodyLen: parameter and intermediate bytes, then a final byte.
func csiBodyLen(s string, j int) int {
	start := j
	for j < len(s) && s[j] >= 0x20 && s[j] <= 0x3f {
		j++
	}
	if j < len(s) && s[j] >= 0x40 && s[j] <= 0x7e {
		return j + 1 - start
	}
	return 0
}

// stringBodyLen: any text up to a terminator: BEL, ESC \ or the 8-bit ST
// (U+009C). Another ESC ends the string too (terminals abort it there); the
// ESC is left for the caller to parse.
func (sc *scanner) stringBodyLen(j int) int {
	s := sc.s
	if sc.unterminated >= 0 && j >= sc.unterminated {
		return 0
	}
	start := j
	for j < len(s) {
		switch {
		case s[j] == 0x07:
			return j + 1 - start
		case s[j] == 0x1b:
			if j+1 < len(s) && s[j+1] == '\\' {
				return j + 2 - start
			}
			if j == start {
				return 0
			}
			return j - start
		case s[j] == 0xc2 && j+1 < len(s) && s[j+1] == 0x9c:
			return j + 2 - start
		}
		j++
	}
	sc.unterminated = start
	return 0
}
