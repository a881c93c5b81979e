package ui_test

import (
	"testing"

	"cardterm/ui"
)

func TestFormatCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 100000: "100,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := ui.FormatCount(n); got != want {
			t.Errorf("%d: %q want %q", n, got, want)
		}
	}
}
