package table_test

import (
	"runtime"
	"strings"
	"testing"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/table"
)

// allocated is the bytes fn allocates.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A cell of 10 MB (a bell inside, so it must be rewritten) costs a frame
// what a cell of a kilobyte costs: only the first kilobyte is read, cut
// with "…".
func TestTableFrameReadsNoMoreOfALongCell(t *testing.T) {
	st := theme.New(true, false)
	tb := table.New(&st, []table.Column{{Title: "Name", Min: 10}, {Title: "Address", Width: 42}})
	huge := "\a" + strings.Repeat("y", 10<<20)
	tb.SetRows([][]string{{huge, "0xabc"}, {"short", "0xdef"}})
	tb.SetSize(80, 10)
	_ = tb.View()
	var view string
	if n := allocated(func() { view = tb.View() }); n > 256<<10 {
		t.Fatalf("a frame allocated %d bytes", n)
	}
	if !strings.Contains(view, `\x07yyy`) || !strings.Contains(view, "0xabc") {
		t.Fatalf("view %q", view)
	}
}

func TestCutTextReadsOnlyWhatItKeeps(t *testing.T) {
	if got := ui.ClipLong(strings.Repeat("é", 1000)); !strings.HasSuffix(got, "é…") || len(got) > 1024+len("…") {
		t.Fatalf("%d bytes: %q…", len(got), got[:10])
	}
	if got := ui.ClipLong("short"); got != "short" {
		t.Fatalf("%q", got)
	}
}
