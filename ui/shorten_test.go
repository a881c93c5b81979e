package ui_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"cardterm/ui"
)

func TestShortenKeepsBothEndsOfIds(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"0x9b22d3b31feca40493dc202e6743c335aa01c335", "0x9b22…c335"},
		{"cd539010-9af7-562a-beff-7246a1f54321", "cd539…54321"},
		{"Alice hardware wallet", "Alice hardw…"},
		{"short", "short"},
	} {
		w := 11
		if tc.in == "Alice hardware wallet" {
			w = 12
		}
		got := ui.Shorten(tc.in, w)
		if got != tc.want {
			t.Errorf("Shorten(%q, %d) = %q, want %q", tc.in, w, got, tc.want)
		}
		if ansi.StringWidth(got) > w {
			t.Errorf("Shorten(%q) is %d wide", tc.in, ansi.StringWidth(got))
		}
	}
}

// Whatever is cut is marked: nothing loses characters silently.
func TestShortenAlwaysMarksACut(t *testing.T) {
	for _, s := range []string{"0x9b22d3b31feca40493dc202e6743c335", "a sentence that goes on", "日本語のテキストです"} {
		for w := 1; w < ansi.StringWidth(s); w++ {
			got := ui.Shorten(s, w)
			if !strings.Contains(got, "…") || ansi.StringWidth(got) > w {
				t.Fatalf("Shorten(%q, %d) = %q", s, w, got)
			}
		}
	}
}
