package table_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui/uitest"
)

// BenchmarkTableKeyPress100k is one key press (Update with "down" and View)
// on 100,000 rows at 120x40; the budget is 1 ms.
func BenchmarkTableKeyPress100k(b *testing.B) {
	tb := newTable(100_000, 120, 40)
	down := uitest.Key("down")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb, _ = tb.Update(down)
		_ = tb.View()
	}
}

// BenchmarkTableFilter100k types one more filter character (narrowing from
// the previous matches) and draws; the budget is 1 ms.
func BenchmarkTableFilter100k(b *testing.B) {
	base := newTable(100_000, 120, 40)
	base = press(base, "/", "m", "e", "r")
	// Each round types onto base and backspace takes it back to base's text.
	uitest.BenchTypeAndErase(b, func(k tea.KeyPressMsg) { base, _ = base.Update(k) }, func() { _ = base.View() }, "c")
}

// BenchmarkTableFilterFirstChar100k types the first filter character: a scan
// of all 100,000 rows.
func BenchmarkTableFilterFirstChar100k(b *testing.B) {
	base := newTable(100_000, 120, 40)
	base = press(base, "/")
	// Each round types onto base and backspace takes it back to base's text.
	uitest.BenchTypeAndErase(b, func(k tea.KeyPressMsg) { base, _ = base.Update(k) }, func() { _ = base.View() }, "7")
}

// BenchmarkTableSetRows100k is the one-off cost of new data.
func BenchmarkTableSetRows100k(b *testing.B) {
	tb := newTable(0, 120, 40)
	rows := bigRows(100_000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb.SetRows(rows)
	}
}
