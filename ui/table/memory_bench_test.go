package table_test

import (
	"runtime"
	"testing"

	"cardterm/theme"
	"cardterm/ui/table"
)

// heapInUse is the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkTableHeldBytes100k reports the bytes the table itself keeps
// alive for 100,000 rows it was given (the rows are the screen's and are
// not counted), as held-B: after SetRows, and after a first filter key.
func BenchmarkTableHeldBytes100k(b *testing.B) {
	rows := bigRows(100_000)
	st := theme.New(true, false)
	var held, filtered uint64
	for i := 0; i < b.N; i++ {
		before := heapInUse()
		tb := table.New(&st, []table.Column{{Title: "ID", Width: 10}, {Title: "Merchant", Min: 10}, {Title: "Cur", Width: 5}, {Title: "Amount", Width: 10, Right: true}})
		tb.SetRows(rows)
		tb.SetSize(120, 40)
		held = heapInUse() - before
		tb = press(tb, "/", "m")
		filtered = heapInUse() - before
		runtime.KeepAlive(tb)
	}
	b.ReportMetric(float64(held), "held-B")
	b.ReportMetric(float64(filtered), "filtered-held-B")
}
