package screenkit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
)

func TestPairLinesWrapAndNeverCutAnIdAtItsEnd(t *testing.T) {
	st := theme.New(true, true)
	id := "4186a4db-5216-51aa-9139-d9c52240285d"
	for _, width := range []int{30, 50, 80, 120} {
		out := PairLines(&st, width, []Pair{{"record", "b8ce90de-6de9-581b-a9b9-8f2ec0724c92"}, {"set", id}}, []Pair{{"by", "acme-mobile"}})
		lines := strings.Split(out, "\n")
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > width {
				t.Fatalf("width %d: line %q is %d wide", width, l, w)
			}
		}
		plain := ansi.Strip(out)
		if !strings.Contains(plain, id[len(id)-6:]) || !strings.Contains(plain, id[:6]) {
			t.Fatalf("width %d: the id lost its ends:\n%s", width, plain)
		}
		if !strings.HasPrefix(lines[len(lines)-1], "by") && !strings.Contains(ansi.Strip(lines[len(lines)-1]), "by acme-mobile") {
			t.Fatalf("width %d: a group does not start its own line:\n%s", width, plain)
		}
	}
	if out := ansi.Strip(PairLines(&st, 120, []Pair{{"a", "1"}, {"b", ""}})); out != "a 1  b —" {
		t.Fatalf("one line: %q", out)
	}
}
