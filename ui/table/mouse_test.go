package table_test

import (
	"strings"
	"testing"

	"cardterm/ui/uitest"
)

// A click on a row selects the row drawn there, wherever the table has
// scrolled to; the header, the footer and blank lines select nothing.
func TestTableClickSelectsTheRowDrawnThere(t *testing.T) {
	tb := newTable(100, 60, 10) // header, 8 rows, footer
	if i, ok := tb.ClickRow(3); !ok || i != 2 || cursor(tb) != 2 {
		t.Fatalf("click on line 3: row %d %v, cursor %d; want row 2", i, ok, cursor(tb))
	}
	line := strings.Split(uitest.Plain(tb.View()), "\n")[3]
	if !strings.HasPrefix(line, "› tx-000002") {
		t.Fatalf("line 3 after the click: %q", line)
	}
	tb = press(tb, "end") // scrolled: the rows drawn are 92-99
	if i, ok := tb.ClickRow(1); !ok || i != 92 {
		t.Fatalf("click on the first row after end: %d %v, want 92", i, ok)
	}
	for _, y := range []int{0, 9, 10, -1} {
		if i, ok := tb.ClickRow(y); ok {
			t.Errorf("click on line %d selected row %d", y, i)
		}
	}
	if cursor(tb) != 92 {
		t.Errorf("clicks off the rows moved the cursor to %d", cursor(tb))
	}
	short := newTable(3, 60, 10)
	if i, ok := short.ClickRow(5); ok {
		t.Errorf("click under the last of 3 rows selected row %d", i)
	}
}

// The wheel moves the cursor as the arrows do, within the rows, and
// scrolls the table to keep it on screen.
func TestTableWheelMovesTheCursor(t *testing.T) {
	tb := newTable(100, 60, 10)
	tb.Wheel(3)
	if cursor(tb) != 3 {
		t.Fatalf("wheel down 3: cursor %d", cursor(tb))
	}
	for range 10 {
		tb.Wheel(1)
	}
	if cursor(tb) != 13 || !strings.Contains(uitest.Plain(tb.View()), "› tx-000013") {
		t.Fatalf("cursor %d not shown at 13:\n%s", cursor(tb), uitest.Plain(tb.View()))
	}
	tb.Wheel(-50)
	if cursor(tb) != 0 {
		t.Errorf("wheel up past the top: cursor %d", cursor(tb))
	}
	tb.Wheel(500)
	if cursor(tb) != 99 {
		t.Errorf("wheel down past the end: cursor %d", cursor(tb))
	}
	empty := newTable(0, 60, 10)
	empty.Wheel(1)
	if _, ok := empty.Cursor(); ok {
		t.Error("an empty table has a cursor after the wheel")
	}
}
