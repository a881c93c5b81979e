package screenkit_test

import (
	"fmt"
	"strings"
	"testing"

	"cardterm/screens/screenkit"
	"cardterm/theme"
)

// A page of ten lines in rows of a given height: what shows from an
// offset, a row saying what is hidden above and below, every row within
// the height, the last line reachable.
func TestScrolled(t *testing.T) {
	st := theme.New(true, true)
	page := make([]string, 10)
	for i := range page {
		page[i] = fmt.Sprintf("line %d", i+1)
	}
	for _, c := range []struct {
		name           string
		height, offset int
		want           string
	}{
		{"fits", 12, 3, "line 1|line 2|line 3|line 4|line 5|line 6|line 7|line 8|line 9|line 10"},
		{"top", 5, 0, "line 1|line 2|line 3|line 4|↓ 6 more lines below"},
		{"one down", 5, 1, "↑ 1 more line above|line 2|line 3|line 4|↓ 6 more lines below"},
		{"end", 5, screenkit.ScrollLast(10, 5), "↑ 6 more lines above|line 7|line 8|line 9|line 10"},
		{"past the end", 5, 40, "↑ 6 more lines above|line 7|line 8|line 9|line 10"},
		{"before the top", 5, -3, "line 1|line 2|line 3|line 4|↓ 6 more lines below"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows := screenkit.Scrolled(&st, page, c.offset, c.height)
			if got := strings.Join(rows, "|"); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if len(rows) > c.height {
				t.Errorf("%d rows in %d", len(rows), c.height)
			}
		})
	}
}
