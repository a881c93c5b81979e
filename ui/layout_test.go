package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// The fast path must agree with ansi.StringWidth for every rune it counts
// itself, alone, styled and next to others.
func TestCellWidthAgreesWithStringWidth(t *testing.T) {
	for r := rune(0x20); r <= 0x2fff; r++ {
		if r == 0x7f || (r >= 0x80 && r < 0xa0) {
			continue
		}
		s := string(r)
		for _, in := range []string{s, "a" + s + "b", "\x1b[1;38;2;1;2;3m" + s + "\x1b[0m", "\x1b]8;;http://x\x07" + s + "\x1b]8;;\x1b\\"} {
			if got, want := cellWidth(in), ansi.StringWidth(in); got != want {
				t.Fatalf("U+%04X in %q: cellWidth %d, ansi.StringWidth %d", r, in, got, want)
			}
		}
	}
	for _, in := range []string{
		"", "plain", "e\u0301", "👍🏽", "日本", "✓\ufe0f", "\x1b[31", "\x1b]8;;x", "tab\there",
		strings.Repeat("█▀▄ ", 30), "\x1b[7m SANDBOX \x1b[m  alice",
	} {
		if got, want := cellWidth(in), ansi.StringWidth(in); got != want {
			t.Fatalf("%q: cellWidth %d, ansi.StringWidth %d", in, got, want)
		}
	}
}

// FitMarked pads a short line and ends a cut one with "…", in cells.
func TestFitMarked(t *testing.T) {
	for _, tc := range []struct {
		in    string
		width int
		want  string
	}{
		{in: "abc", width: 5, want: "abc  "},
		{in: "abcde", width: 5, want: "abcde"},
		{in: "abcdef", width: 5, want: "abcd…"},
		{in: "日本語", width: 4, want: "日… "},
		{in: "abc", width: 0, want: ""},
	} {
		if got := ansi.Strip(FitMarked(tc.in, tc.width)); got != tc.want {
			t.Errorf("FitMarked(%q, %d) = %q, want %q", tc.in, tc.width, got, tc.want)
		}
	}
}
