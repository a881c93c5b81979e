package ui

import (
	"strings"
	"testing"
)

// Cells cut without allocating read exactly as Shorten cuts them.
func TestWriteShortASCIIMatchesShorten(t *testing.T) {
	texts := []string{"Entry 12345 merchant", "0x52908400098527886E0F7030069857D2E4169EE7",
		"ad77738e-778b-576c-8b43-801a28b200b8", "abcdefghijklmnop", "short words here and there", "x y"}
	for _, s := range texts {
		for w := 1; w < len(s); w++ {
			var b strings.Builder
			writeShortASCII(&b, s, w)
			if want := Shorten(s, w); b.String() != want {
				t.Fatalf("%q at %d: %q, Shorten %q", s, w, b.String(), want)
			}
		}
	}
}
