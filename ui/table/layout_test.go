package table_test

import (
	"strings"
	"testing"

	"cardterm/theme"
	"cardterm/ui/table"
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

// longMerchant is the cell the tests below put far past the 1,000 rows a
// table measures its columns on.
const longMerchant = "Merchant with a much longer name, far down the list"

// merchantsTable is 5,000 short merchants with the given rows' merchant
// replaced, in a flexible column beside a fixed currency column.
func merchantsTable(long map[int]string) table.Table {
	st := theme.New(true, false)
	tb := table.New(&st, []table.Column{{Title: "Merchant", Min: 10}, {Title: "Cur", Width: 5}})
	rows := make([][]string, 5000)
	for i := range rows {
		rows[i] = []string{"Short merchant", "EUR"}
	}
	for row, merchant := range long {
		rows[row][0] = merchant
	}
	tb.SetRows(rows)
	return tb
}

// A row past the measured first rows that is wider than them is drawn
// whole once it scrolls into view, when there is room for it.
func TestTableWidensForALongCellFarDown(t *testing.T) {
	tb := merchantsTable(map[int]string{4000: longMerchant})
	tb.SetSize(120, 10)
	if strings.Contains(uitest.Plain(tb.View()), "Merchant with") {
		t.Fatal("the long row shows before it is reached")
	}
	tb.SetCursor(4000)
	v := uitest.Plain(tb.View())
	if !strings.Contains(v, longMerchant+" EUR") {
		t.Fatalf("the long merchant is not drawn whole beside its currency:\n%s", v)
	}
}

// A long cell far down that is on screen while no width is spare is drawn
// whole once the terminal widens, and one that a filter brings into view
// is read too.
func TestTableWidensForALongCellOnScreenWhenRoomComes(t *testing.T) {
	tb := merchantsTable(map[int]string{4000: longMerchant, 4500: longMerchant + " too"})
	tb.SetSize(22, 10) // no spare width: the merchants take all there is
	tb.SetCursor(4000)
	tb.SetSize(120, 10)
	if v := uitest.Plain(tb.View()); !strings.Contains(v, longMerchant+" EUR") {
		t.Fatalf("after widening, the long merchant is not whole:\n%s", v)
	}
	tb = press(tb, "/", "t", "o", "o", "enter")
	if v := uitest.Plain(tb.View()); !strings.Contains(v, longMerchant+" too EUR") {
		t.Fatalf("the filtered long merchant is not whole:\n%s", v)
	}
}
