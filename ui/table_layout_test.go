package ui_test

import (
	"strings"
	"testing"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// On a wide terminal the flexible column keeps its content's width: the
// columns after it sit beside it, not at the far edge.
func TestTableLeavesSpareWidthAtTheRight(t *testing.T) {
	tb := newTable(50, 200, 10)
	header := strings.SplitN(uitest.Plain(tb.View()), "\n", 2)[0]
	if at := strings.Index(header, "Cur"); at < 0 || at > 40 {
		t.Fatalf("the Cur column starts at %d, far from the merchants:\n%q", at, header)
	}
}

// A row past the measured first rows that is wider than them is drawn
// whole once it scrolls into view, when there is room for it.
func TestTableWidensForALongCellFarDown(t *testing.T) {
	st := theme.New(true, false)
	long := "Merchant with a much longer name, far down the list"
	tb := ui.NewTable(&st, []ui.Column{{Title: "Merchant", Min: 10}, {Title: "Cur", Width: 5}})
	rows := make([][]string, 5000)
	for i := range rows {
		rows[i] = []string{"Short merchant", "EUR"}
	}
	rows[4000][0] = long
	tb.SetRows(rows)
	tb.SetSize(120, 10)
	if strings.Contains(uitest.Plain(tb.View()), "Merchant with") {
		t.Fatal("the long row shows before it is reached")
	}
	tb.SetCursor(4000)
	v := uitest.Plain(tb.View())
	if !strings.Contains(v, long+" EUR") {
		t.Fatalf("the long merchant is not drawn whole beside its currency:\n%s", v)
	}
}

// A long cell far down that is on screen while no width is spare is drawn
// whole once the terminal widens, and one that a filter brings into view
// is read too.
func TestTableWidensForALongCellOnScreenWhenRoomComes(t *testing.T) {
	st := theme.New(true, false)
	long := "Merchant with a much longer name, far down the list"
	tb := ui.NewTable(&st, []ui.Column{{Title: "Merchant", Min: 10}, {Title: "Cur", Width: 5}})
	rows := make([][]string, 5000)
	for i := range rows {
		rows[i] = []string{"Short merchant", "EUR"}
	}
	rows[4000][0] = long
	rows[4500][0] = long + " too"
	tb.SetRows(rows)
	tb.SetSize(22, 10) // no spare width: the merchants take all there is
	tb.SetCursor(4000)
	tb.SetSize(120, 10)
	if v := uitest.Plain(tb.View()); !strings.Contains(v, long+" EUR") {
		t.Fatalf("after widening, the long merchant is not whole:\n%s", v)
	}
	tb = press(tb, "/", "t", "o", "o", "enter")
	if v := uitest.Plain(tb.View()); !strings.Contains(v, long+" too EUR") {
		t.Fatalf("the filtered long merchant is not whole:\n%s", v)
	}
}
