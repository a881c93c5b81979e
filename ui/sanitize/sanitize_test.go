package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"clean", "Merchant Berlin 12,50 €", "Merchant Berlin 12,50 €"},
		{"empty", "", ""},
		{"csi colour", "\x1b[31mred\x1b[0m", "red"},
		{"csi clear screen", "a\x1b[2Jb", "ab"},
		{"csi private", "a\x1b[?1049hb", "ab"},
		{"osc title bel", "\x1b]0;pwned\x07ok", "ok"},
		{"osc 8 link", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"},
		{"osc 52 clipboard", "x\x1b]52;c;ZXZpbA==\x07y", "xy"},
		{"osc 8-bit st", "a\x1b]0;t\u009cb", "ab"},
		{"dcs", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"apc", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
		{"pm sos", "a\x1b^pm\x1b\\b\x1bXsos\x1b\\c", "abc"},
		{"two char", "a\x1bcb\x1b7c\x1b(Bd", "abcd"},
		{"c1 csi", "a\u009b31mb", "ab"},
		{"c1 osc", "a\u009d0;x\u0007b", "ab"},
		{"c1 lone", "a\u0085b", `a\u0085b`},
		{"lone esc", "a\x1b", `a\x1b`},
		{"incomplete csi", "a\x1b[31", `a\x1b[31`},
		{"incomplete osc", "a\x1b]0;title", `a\x1b]0;title`},
		{"esc then control", "\x1b\x07", `\x1b\x07`},
		{"bel", "ding\x07", `ding\x07`},
		{"del", "a\x7fb", `a\x7fb`},
		{"nul", "a\x00b", `a\x00b`},
		{"cr", "a\rb", `a\rb`},
		{"lf", "a\nb", `a\nb`},
		{"crlf", "a\r\nb", `a\r\nb`},
		{"tab", "a\tb", "a b"},
		{"rlo", "abc\u202egnp.exe", "abc<U+202E>gnp.exe"},
		{"isolates", "\u2066x\u2069", "<U+2066>x<U+2069>"},
		{"alm lrm rlm", "\u061c\u200e\u200f", "<U+061C><U+200E><U+200F>"},
		{"zero width", "pay\u200bpal\u200c\u200d\u2060\ufeff\u180e", "pay<U+200B>pal<U+200C><U+200D><U+2060><U+FEFF><U+180E>"},
		{"invalid utf8", "a\xffb\xc3", "a\uFFFDb\uFFFD"},
		{"raw 8-bit csi byte", "a\x9b31mb", "a\uFFFD31mb"},
		{"emoji and cjk", "日本 🎉", "日本 🎉"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Text(tc.in); got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestMultiline(t *testing.T) {
	for in, want := range map[string]string{
		"line1\nline2":             "line1\nline2",
		"a\r\nb":                   "a\\r\nb",
		"\x1b[1mbold\x1b[0m\nnext": "bold\nnext",
		"\u202e\n":                 "<U+202E>\n",
	} {
		if got := Multiline(in); got != want {
			t.Errorf("Multiline(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTextCleanDoesNotAllocate(t *testing.T) {
	s := "A perfectly ordinary merchant name, Zürich 42 €"
	if n := testing.AllocsPerRun(100, func() { _ = Text(s) }); n != 0 {
		t.Fatalf("%v allocations for a clean string", n)
	}
	if Text(s) != s {
		t.Fatal("clean string changed")
	}
}

// checkSafe reports what a sanitized string must never contain.
func checkSafe(t *testing.T, in, out string, multiline bool) {
	t.Helper()
	if !utf8.ValidString(out) {
		t.Fatalf("invalid UTF-8 out of %q: %q", in, out)
	}
	for _, r := range out {
		switch {
		case r == '\n' && multiline:
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f, Invisible(r):
			t.Fatalf("Text(%q) = %q contains %U", in, out, r)
		}
	}
	if isClean(in, multiline) && out != in {
		t.Fatalf("clean %q changed to %q", in, out)
	}
}

func FuzzText(f *testing.F) {
	for _, s := range []string{
		"", "plain", "\x1b[31mred", "\x1b]8;;http://x\x1b\\y", "\x1b]52;c;AA==\x07", "\u009b1m",
		"\u009d0;t\u009c", "\x1bP\x1b\\", "\u202e\u200b", "\xff\xfe", "a\r\n\tb\x00\x7f", "\x1b\x1b[", "\x1b]\x1b]\x07",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkSafe(t, s, Text(s), false)
		checkSafe(t, s, Multiline(s), true)
		if strings.Contains(Text(s), "\n") {
			t.Fatal("newline in single-line output")
		}
		if got := Text(Text(s)); got != Text(s) {
			t.Fatalf("not idempotent: %q -> %q", Text(s), got)
		}
	})
}

func BenchmarkTextClean(b *testing.B) {
	s := "Merchant 976 Berlin USDC 4653.53"
	for i := 0; i < b.N; i++ {
		_ = Text(s)
	}
}

func TestTextLinear(t *testing.T) {
	evil := strings.Repeat("\u009d", 200_000) + strings.Repeat("\x1b]", 200_000)
	out := Text(evil)
	checkSafe(t, evil, out, false)
}

func TestBounded(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"EUR", "EUR"},
		{"USDC\x1b]0;x\x07", "USDC"},
		{"ABCDEFGHIJKLMNOP", "ABCDEFGHIJK…"},
		{"ÉÉÉÉÉÉÉÉÉÉÉÉÉ", "ÉÉÉÉÉÉÉÉÉÉÉ…"},
	} {
		if got := Bounded(c.in, MaxCode); got != c.want {
			t.Errorf("Bounded(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
