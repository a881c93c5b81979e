package table

import (
	"math/rand/v2"
	"strings"
	"testing"

	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// containsIn is the filter's rule said plainly: some cell, sanitized and
// lower-cased (lowered holds each cell so), contains the query.
func containsIn(lowered []string, q string) bool {
	for _, c := range lowered {
		if strings.Contains(c, q) {
			return true
		}
	}
	return false
}

// The masks' one-character answer, the searches and narrowing must find
// exactly the rows a plain search finds: mixed case, control characters,
// UTF-8, long cells and extra cells included.
func TestFilterAgreesWithPlainSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	letters := []rune("abcXYZ019 .-\x07é")
	const ascii = 12 // letters[:ascii] is printable ASCII
	rows := make([][]string, 3000)
	for i := range rows {
		cells := make([]string, 1+rng.IntN(4))
		for c := range cells {
			n, alphabet := rng.IntN(12), letters
			if i == 997 && c == 0 {
				// Past what a position holds; printable ASCII, so the
				// test's searches over it stay quick.
				n, alphabet = 1<<offsetBits+10, letters[:ascii]
			}
			var b strings.Builder
			for range n {
				b.WriteRune(alphabet[rng.IntN(len(alphabet))])
			}
			cells[c] = b.String()
		}
		rows[i] = cells
	}
	lowered := make([][]string, len(rows))
	for r, row := range rows {
		for _, c := range row {
			lowered[r] = append(lowered[r], strings.ToLower(sanitize.Text(c)))
		}
	}
	st := theme.New(true, false)
	tb := New(&st, []Column{{Title: "A"}, {Title: "B"}})
	tb.SetRows(rows)
	tb.ensureIndex()
	check := func(lv filterLevel) {
		t.Helper()
		var want []int32
		for r, row := range lowered {
			if containsIn(row, lv.query) {
				want = append(want, int32(r))
			}
		}
		if len(lv.match) != len(want) {
			t.Fatalf("query %q: %d rows, want %d", lv.query, len(lv.match), len(want))
		}
		for k := range want {
			if lv.match[k] != want[k] {
				t.Fatalf("query %q: row %d, want %d", lv.query, lv.match[k], want[k])
			}
		}
	}
	for _, q := range []string{"a", "x", "0", "9", "q", " ", "-", "é", "\\x07", "ab", "b0", "z.", "xy", "a a"} {
		lv := tb.scanRange(0, tb.n, q)
		check(lv)
		for _, more := range []string{"a", "y", "1", " ", "é"} {
			check(tb.narrow(lv, q+more))
			check(tb.narrow(tb.narrow(lv, q+more), q+more+"z"))
		}
	}
}
