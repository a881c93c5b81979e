package table_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui/table"
	"cardterm/ui/uitest"
)

func bigRows(n int) [][]string {
	rows := make([][]string, n)
	cur := []string{"USDC", "ETH", "SOL", "BTC"}
	for i := range rows {
		rows[i] = []string{
			fmt.Sprintf("tx-%06d", i),
			fmt.Sprintf("Merchant %d Berlin", i%977),
			cur[i%len(cur)],
			fmt.Sprintf("%d.%02d", i%5000, i%100),
		}
	}
	return rows
}

func newTable(n, w, h int) table.Table {
	st := theme.New(true, false)
	t := table.New(&st, []table.Column{
		{Title: "ID", Width: 10},
		{Title: "Merchant", Min: 10},
		{Title: "Cur", Width: 5},
		{Title: "Amount", Width: 10, Right: true},
	})
	t.SetRows(bigRows(n))
	t.SetSize(w, h)
	return t
}

func press(t table.Table, keys ...string) table.Table {
	for _, k := range keys {
		t, _ = t.Update(uitest.Key(k))
	}
	return t
}

func cursor(t table.Table) int {
	i, ok := t.Cursor()
	if !ok {
		return -1
	}
	return i
}

func TestTableMovement(t *testing.T) {
	tb := newTable(100, 60, 10)
	tb = press(tb, "down", "j", "j")
	if cursor(tb) != 3 {
		t.Fatalf("cursor %d", cursor(tb))
	}
	tb = press(tb, "k", "up", "up", "up")
	if cursor(tb) != 0 {
		t.Fatalf("cursor %d", cursor(tb))
	}
	tb = press(tb, "pgdown")
	if cursor(tb) != 8 {
		t.Fatalf("pgdown: cursor %d", cursor(tb))
	}
	tb = press(tb, "G")
	if cursor(tb) != 99 {
		t.Fatalf("G: cursor %d", cursor(tb))
	}
	if !strings.Contains(uitest.Plain(tb.View()), "tx-000099") {
		t.Fatal("last row not visible after G")
	}
	tb = press(tb, "pgup", "g")
	if cursor(tb) != 0 {
		t.Fatalf("g: cursor %d", cursor(tb))
	}
	tb = press(tb, "end", "home")
	if cursor(tb) != 0 {
		t.Fatal("home")
	}
}

func TestTableMarksOnlyWhenMarkable(t *testing.T) {
	tb := newTable(10, 60, 10)
	tb = press(tb, "space", "down", "space")
	if len(tb.Marked()) != 0 || strings.Contains(uitest.Plain(tb.View()), "marked") {
		t.Fatal("a table marks rows before SetMarkable")
	}
	for _, b := range tb.KeyMap().ShortHelp() {
		if b.Enabled() && b.Help().Desc == "mark" {
			t.Fatal("the help offers marking on a table that does not mark")
		}
	}
}

func TestTableMarks(t *testing.T) {
	tb := newTable(10, 60, 10)
	tb.SetMarkable(true)
	tb = press(tb, "space", "down", "down", "space", "down", "space", "space")
	if got := tb.Marked(); !reflect.DeepEqual(got, []int{0, 2}) {
		t.Fatalf("marked %v", got)
	}
	v := uitest.Plain(tb.View())
	if !strings.Contains(v, "● tx-000000") || !strings.Contains(v, "2 marked") {
		t.Fatalf("marks not shown:\n%s", v)
	}
	tb.ClearMarks()
	if len(tb.Marked()) != 0 {
		t.Fatal("ClearMarks")
	}
}

func TestTableFilter(t *testing.T) {
	tb := newTable(1000, 60, 10)
	tb = press(tb, "G", "k") // row 998
	tb = press(tb, "/")
	if !tb.Filtering() {
		t.Fatal("/ did not start the filter")
	}
	tb = press(tb, "9", "9", "8")
	if tb.Filter() != "998" {
		t.Fatalf("filter %q", tb.Filter())
	}
	if cursor(tb) != 998 {
		t.Fatalf("cursor left the row: %d", cursor(tb))
	}
	n998 := tb.VisibleLen()
	tb = press(tb, "backspace")
	if tb.VisibleLen() <= n998 || cursor(tb) != 998 {
		t.Fatalf("widening: %d rows, cursor %d", tb.VisibleLen(), cursor(tb))
	}
	// Narrowing to something that excludes the cursor row keeps a valid cursor.
	tb = press(tb, "backspace", "backspace")
	tb = press(tb, "uSdC")
	if tb.VisibleLen() != 250 {
		t.Fatalf("case-insensitive usdc: %d rows", tb.VisibleLen())
	}
	if _, ok := tb.Cursor(); !ok {
		t.Fatal("no cursor")
	}
	// typed j/k are text while filtering
	tb = press(tb, "j")
	if tb.Filter() != "uSdCj" || tb.VisibleLen() != 0 {
		t.Fatalf("filter %q rows %d", tb.Filter(), tb.VisibleLen())
	}
	if !strings.Contains(uitest.Plain(tb.View()), "no row matches") {
		t.Fatal("empty filter result not shown")
	}
	tb = press(tb, "backspace", "enter")
	if tb.Filtering() || tb.Filter() != "uSdC" {
		t.Fatal("enter did not accept")
	}
	if !strings.Contains(uitest.Plain(tb.View()), "filter: uSdC") {
		t.Fatal("footer lacks the filter")
	}
	tb = press(tb, "j") // moves now
	tb = press(tb, "esc")
	if tb.Filter() != "" || tb.VisibleLen() != 1000 {
		t.Fatal("esc did not clear the filter")
	}
	tb = press(tb, "/", "x", "esc")
	if tb.Filtering() || tb.Filter() != "" {
		t.Fatal("esc while typing did not clear")
	}
}

func TestTableFilterIsLiteralAndSanitized(t *testing.T) {
	st := theme.New(true, true)
	tb := table.New(&st, []table.Column{{Title: "A"}, {Title: "B"}})
	tb.SetRows([][]string{{"evil\x1b[2Jx", "\u202egnp.exe"}, {"plain", "row"}})
	tb.SetSize(40, 5)
	v := tb.View()
	if strings.Contains(v, "\x1b[2J") || strings.Contains(v, "\u202e") {
		t.Fatalf("unsanitized cell: %q", v)
	}
	tb = press(tb, "/")
	tb = press(tb, "x<")
	if tb.VisibleLen() != 0 { // "x" then "<": no cell has "x<" (cells are not joined)
		t.Fatalf("matched across cells: %d", tb.VisibleLen())
	}
}

func TestTableViewSize(t *testing.T) {
	for _, sz := range [][2]int{{120, 40}, {30, 5}, {10, 3}, {200, 2}} {
		tb := newTable(50, sz[0], sz[1])
		tb = press(tb, "space", "j")
		v := tb.View()
		lines := strings.Split(v, "\n")
		if len(lines) != sz[1] {
			t.Fatalf("%v: %d lines", sz, len(lines))
		}
		for i, l := range lines {
			if w := ansi.StringWidth(l); w != sz[0] {
				t.Fatalf("%v: line %d is %d wide: %q", sz, i, w, l)
			}
		}
	}
	empty := newTable(0, 40, 5)
	if !strings.Contains(uitest.Plain(empty.View()), "no rows") {
		t.Fatal("empty table")
	}
	if _, ok := empty.Cursor(); ok {
		t.Fatal("cursor on empty table")
	}
}

func TestTableWideCells(t *testing.T) {
	st := theme.New(false, false)
	tb := table.New(&st, []table.Column{{Title: "Name", Width: 6}, {Title: "Rest"}})
	tb.SetRows([][]string{{"日本語テキスト", "ok"}})
	tb.SetSize(20, 4)
	uitest.Golden(t, "wide", uitest.Plain(tb.View()))
}

func TestTableHuge(t *testing.T) {
	tb := newTable(100_000, 120, 40)
	tb = press(tb, "G")
	if cursor(tb) != 99_999 {
		t.Fatal("G at 100k")
	}
	v := uitest.Plain(tb.View())
	if !strings.Contains(v, "row 100,000 of 100,000") {
		t.Fatalf("footer:\n%s", v)
	}
	tb = press(tb, "/", "M", "e", "r", "c", "h", "a", "n", "t", " ", "9", "7", "6")
	if tb.VisibleLen() != 102 || cursor(tb) != 99_653 { // the nearest match at or before the old row
		t.Fatalf("rows %d cursor %d", tb.VisibleLen(), cursor(tb))
	}
	uitest.Golden(t, "filtered", uitest.Plain(tb.View()))
}

// A screen switching layouts on resize keeps what the user was doing: the
// open filter, its text, the cursor and the rows.
func TestTableSetColumnsKeepsFilterAndCursor(t *testing.T) {
	tb := newTable(1000, 60, 10)
	tb = press(tb, "/", "m", "e", "r", "c", "h", "a", "n", "t", " ", "9", "7", "6")
	tb = press(tb, "down")
	before, _ := tb.Cursor()
	tb.SetColumns([]table.Column{
		{Title: "ID", Width: 10, Hidden: true},
		{Title: "Merchant", Min: 10},
		{Title: "Cur", Width: 5},
		{Title: "Amount", Width: 10, Right: true},
	})
	if !tb.Filtering() || tb.Filter() != "merchant 976" {
		t.Fatalf("filter lost: filtering %v %q", tb.Filtering(), tb.Filter())
	}
	if after, _ := tb.Cursor(); after != before || tb.Len() != 1000 {
		t.Fatalf("cursor %d -> %d, %d rows", before, after, tb.Len())
	}
	view := uitest.Plain(tb.View())
	if strings.Contains(view, "tx-000976") || !strings.Contains(view, "Merchant 976 Berlin") {
		t.Fatalf("the hidden column is drawn or the rows are gone:\n%s", view)
	}
}

// FilterKey takes a key only while the quick filter is open: there it types
// (a letter a screen binds included); otherwise the screen gets it.
func TestTableFilterKeyTakesKeysOnlyWhileFiltering(t *testing.T) {
	tb := newTable(50, 120, 40)
	if _, took := tb.FilterKey(uitest.Key("f")); took {
		t.Fatal("the table took a key with its filter closed")
	}
	tb = press(tb, "/")
	if _, took := tb.FilterKey(uitest.Key("f")); !took || tb.Filter() != "f" {
		t.Fatalf("with the filter open: took %v, filter %q; want the key typed", took, tb.Filter())
	}
}

// While a filter is typed, j and k type (they are letters) and the arrows
// move; the help says so and does not offer j or k.
func TestTableFilteringHelpOffersArrowsNotLetters(t *testing.T) {
	tb := newTable(100, 60, 10)
	tb = press(tb, "/", "M", "e", "r")
	for _, row := range tb.KeyMap().FullHelp() {
		for _, b := range row {
			for _, k := range b.Keys() {
				if k == "j" || k == "k" {
					t.Fatalf("while filtering the help offers %q, which types into the filter", b.Help().Key)
				}
			}
		}
	}
	before := cursor(tb)
	tb = press(tb, "down")
	if cursor(tb) == before || tb.Filter() != "Mer" {
		t.Fatalf("down while filtering: cursor %d (was %d), filter %q", cursor(tb), before, tb.Filter())
	}
	tb = press(tb, "j")
	if tb.Filter() != "Merj" {
		t.Fatalf("j while filtering gave the filter %q", tb.Filter())
	}
}

// The table keeps its size at the edges: one line, one or two columns.
func TestTableTinySizes(t *testing.T) {
	for _, n := range []int{0, 3, 50} {
		for _, sz := range [][2]int{{1, 1}, {30, 1}, {1, 4}, {2, 4}, {3, 4}, {20, 2}} {
			tb := newTable(n, sz[0], sz[1])
			tb = press(tb, "j")
			lines := strings.Split(tb.View(), "\n")
			if len(lines) != sz[1] {
				t.Errorf("%d rows at %v: %d lines", n, sz, len(lines))
				continue
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != sz[0] {
					t.Errorf("%d rows at %v: line %d is %d wide: %q", n, sz, i, w, ansi.Strip(l))
				}
			}
		}
	}
}

// After SetRows shrinks the data the cursor and the view follow.
func TestTableSetRowsShrinks(t *testing.T) {
	tb := newTable(100, 60, 10)
	tb = press(tb, "G")
	tb.SetRows(bigRows(3))
	if cursor(tb) != 2 || !strings.Contains(uitest.Plain(tb.View()), "› tx-000002") {
		t.Fatalf("cursor %d:\n%s", cursor(tb), uitest.Plain(tb.View()))
	}
	tb.SetRows(nil)
	if _, ok := tb.Cursor(); ok || !strings.Contains(uitest.Plain(tb.View()), "no rows") {
		t.Fatal("a cursor on no rows")
	}
	tb = press(tb, "j", "G", "pgdown", "space", "/", "q", "enter")
	if _, ok := tb.Cursor(); ok {
		t.Fatal("keys on an empty table made a cursor")
	}
}
