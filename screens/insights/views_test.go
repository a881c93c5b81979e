package insights

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
)

// With no budget yet, the hint is wrapped to the body, never cut at its
// edge (at 80 columns it lost "category" and its stop).
func TestNoBudgetHintWrapsToTheBody(t *testing.T) {
	st := theme.New(true, true)
	out := drawBudgets(&st, nil, "2026-11", 60)
	for _, line := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(line); w > 58 {
			t.Errorf("a line of %d cells in a body of 60: %q", w, line)
		}
	}
	if !strings.Contains(ansi.Strip(strings.ReplaceAll(out, "\n", " ")), "for a category).") {
		t.Fatalf("the hint lost its end:\n%s", out)
	}
}
