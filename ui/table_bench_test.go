package ui_test

import (
	"testing"

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
	c := uitest.Key("c")
	bs := uitest.Key("backspace")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb, _ := base.Update(c)
		_ = tb.View()
		b.StopTimer()
		base, _ = tb.Update(bs) // back to "mer", freeing the level
		b.StartTimer()
	}
}

// BenchmarkTableFilterFirstChar100k types the first filter character: a scan
// of all 100,000 rows.
func BenchmarkTableFilterFirstChar100k(b *testing.B) {
	base := newTable(100_000, 120, 40)
	base = press(base, "/")
	c := uitest.Key("7")
	bs := uitest.Key("backspace")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb, _ := base.Update(c)
		_ = tb.View()
		b.StopTimer()
		base, _ = tb.Update(bs)
		b.StartTimer()
	}
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
