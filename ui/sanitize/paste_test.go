package sanitize

import (
	"testing"
	"unicode/utf8"
)

func TestPaste(t *testing.T) {
	for _, tc := range []struct {
		in, want  string
		multiline bool
		said      string
	}{
		{"plain", "plain", false, ""},
		{"a\tb\nc", "a b c", false, ""},
		{"a\tb\r\nc\rd", "a\tb\nc\nd", true, ""},
		{"\x1b]8;;https://evil\x07link\x1b]8;;\x07", "link", false, "2 escape sequences"},
		{"\u009b31mred", "red", false, "1 escape sequence"},
		{"bad\xffbyte\x00", "badbyte", false, "2 control characters"},
		{"\u200fx\u2069", "x", false, "2 invisible or bidi characters"},
	} {
		got, c := Paste(tc.in, tc.multiline)
		if got != tc.want || c.String() != tc.said {
			t.Fatalf("%q: %q (%s), want %q (%s)", tc.in, got, c, tc.want, tc.said)
		}
	}
}

// FuzzPaste: whatever is pasted, what a field receives is valid UTF-8
// without an escape, a control (but a multi-line field's \n and \t), a
// bidi or zero-width character; printable text passes unchanged.
func FuzzPaste(f *testing.F) {
	for _, seed := range []string{"plain", "\x1b[31mred\x1b[0m", "\x1b]52;c;aGk=\x07", "a\r\nb", "\u202eabc\u2069", "\xff\xfe", "\u009b1m", "line\n"} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, in string, multiline bool) {
		out, _ := Paste(in, multiline)
		if !utf8.ValidString(out) {
			t.Fatalf("%q: %q is not UTF-8", in, out)
		}
		for _, r := range out {
			switch {
			case multiline && (r == '\n' || r == '\t'):
			case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
				t.Fatalf("%q: %q keeps the control %U", in, out, r)
			case ShowInvisible(string(r)) != string(r):
				t.Fatalf("%q: %q keeps the invisible %U", in, out, r)
			}
		}
		printable := true
		for i := 0; i < len(in); i++ {
			printable = printable && in[i] >= 0x20 && in[i] < 0x7f
		}
		if printable && out != in {
			t.Fatalf("%q became %q", in, out)
		}
	})
}
