package ui

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// The one-character fast path must find exactly the rows, and the first
// positions, that a plain search finds, long rows included.
func TestFirstByteIndexAgreesWithSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const letters = "abcxyz019 .-"
	rows := make([][]string, 500)
	for i := range rows {
		n := rng.IntN(40)
		if i%97 == 0 {
			n = 70000 + rng.IntN(100) // past uint16
		}
		var b strings.Builder
		for range n {
			b.WriteByte(letters[rng.IntN(len(letters))])
		}
		if i%97 == 0 {
			b.WriteString("Q7")
		}
		rows[i] = []string{b.String(), "cell2"}
	}
	f := newFilterText(rows)
	for _, q := range []string{"a", "z", "0", "9", "q", "7", "l", "2"} {
		got := f.scanAll(q)
		var want []int32
		for r := range rows {
			text := f.buf[f.off[r]:f.off[r+1]]
			if p := strings.Index(text, q); p >= 0 {
				want = append(want, int32(r))
				k := len(want) - 1
				if k >= len(got.pos) || got.pos[k] != int32(p) {
					t.Fatalf("query %q row %d: position %v, want %d", q, r, got.pos, p)
				}
			}
		}
		if len(got.match) != len(want) {
			t.Fatalf("query %q: %d rows, want %d", q, len(got.match), len(want))
		}
		for k := range want {
			if got.match[k] != want[k] {
				t.Fatalf("query %q: row %d, want %d", q, got.match[k], want[k])
			}
		}
		// Narrowing from the fast path's level must agree too.
		narrowed := f.narrow(got, q+"7")
		for k, r := range narrowed.match {
			if !strings.Contains(f.buf[f.off[r]:f.off[r+1]], q+"7") {
				t.Fatalf("narrow %q: row %d (#%d) does not contain it", q+"7", r, k)
			}
		}
	}
}
