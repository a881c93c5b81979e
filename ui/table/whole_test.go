package table_test

import (
	"strings"
	"testing"

	"cardterm/theme"
	"cardterm/ui/table"
	"cardterm/ui/uitest"
)

// wholeWebhooks is the webhooks' columns drawn for reading, with a name
// wider than its fixed column and a URL wider than the whole table.
func wholeWebhooks(rows [][]string, w, h int) table.Table {
	st := theme.New(true, true)
	st.WholeText = true
	tb := table.New(&st, []table.Column{
		{Title: "Name", Width: 14}, {Title: "URL", Min: 10}, {Title: "Active", Width: 10},
	})
	tb.SetRows(rows)
	tb.SetSize(w, h)
	return tb
}

const (
	longName = "Ledger synchronisation for the treasury team"
	longURL  = "https://hooks.partner-with-a-long-domain.example/v2/ledger/synchronise/cards?tenant=acme-treasury-eu"
)

// A table read out cuts no cell: a name longer than its column and a URL
// longer than the table are there whole, the row wrapped within the width.
func TestWholeTableCutsNoCell(t *testing.T) {
	tb := wholeWebhooks([][]string{{longName, longURL, "active"}, {"CRM", "https://crm.test/x", "inactive"}}, 60, 12)
	view := uitest.Plain(tb.View())
	lines := strings.Split(view, "\n")
	if len(lines) != 12 {
		t.Fatalf("%d lines, want the table's 12:\n%s", len(lines), view)
	}
	joined := ""
	for _, line := range lines {
		if w := len([]rune(line)); w > 60 {
			t.Errorf("a line is %d cells, wider than the table's 60: %q", w, line)
		}
		joined += strings.TrimSpace(line)
	}
	for _, want := range []string{longName, longURL, "inactive", "row 1 of 2"} {
		if !strings.Contains(joined, want) {
			t.Errorf("the table lacks %q whole:\n%s", want, view)
		}
	}
	if strings.Contains(view, "…") {
		t.Errorf("a cell is cut:\n%s", view)
	}
}

// Wrapped rows take more lines than the table has: the cursor's row is
// always drawn, whole, and the footer stays.
func TestWholeTableKeepsTheCursorsRowInView(t *testing.T) {
	var rows [][]string
	for range 10 {
		rows = append(rows, []string{longName, longURL, "active"})
	}
	rows[7][0] = "the seventh"
	tb := wholeWebhooks(rows, 60, 12)
	tb = press(tb, "down", "down", "down", "down", "down", "down", "down")
	view := uitest.Plain(tb.View())
	if !strings.Contains(view, "› the seventh") || !strings.Contains(view, "row 8 of 10") {
		t.Fatalf("the cursor's row or the footer is not drawn:\n%s", view)
	}
}
