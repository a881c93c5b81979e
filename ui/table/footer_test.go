package table_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui/table"
)

// The filter prompt sits with the table it filters: right under the last
// row, not at the bottom of a tall, mostly empty table.
func TestFilterPromptSitsUnderTheRows(t *testing.T) {
	st := theme.New(true, true)
	tb := table.New(&st, []table.Column{{Title: "Name", Min: 8}})
	tb.SetRows([][]string{{"alpha"}, {"beta"}})
	tb.SetSize(40, 30)
	tb = press(tb, "/", "a")
	lines := strings.Split(ansi.Strip(tb.View()), "\n")
	if len(lines) != 30 {
		t.Fatalf("the table draws %d lines, not its height 30", len(lines))
	}
	if !strings.Contains(lines[3], "filter: a") {
		t.Fatalf("the filter prompt is not under the last row:\n%s", strings.Join(lines, "\n"))
	}
	tb = press(tb, "z")
	lines = strings.Split(ansi.Strip(tb.View()), "\n")
	if !strings.Contains(lines[1], "no row matches the filter") || !strings.Contains(lines[2], "filter: az") {
		t.Fatalf("with nothing matching, the prompt is not under the message:\n%s", strings.Join(lines[:4], "\n"))
	}
}
