package statement

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// history100k is how many older transactions the 100,000-row statements
// add to alice's seeded history.
const history100k = 100_000

// liveHeap is the heap's live objects: collected first, so what is
// measured is what the export holds, not garbage the collector has not
// reached yet.
func liveHeap() uint64 {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// exportToFile writes the whole history as CSV to a file, measuring the
// live heap every 100 pages: the most it held above the heap before it
// started.
func exportToFile(t testing.TB, client *apiclient.Client, path string) (Summary, uint64) {
	file, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	base := liveHeap()
	peak := base
	sum, err := Export(context.Background(), client, Query{}, file, CSV, func(p Progress) {
		if p.Pages%100 == 0 {
			peak = max(peak, liveHeap())
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return sum, peak - base
}

// TestExport100kMatchesTheGateway: a statement of 100,000 transactions and
// more holds as many rows as the gateway answers, its sums per currency
// exactly the gateway's, its live heap never more than 20 MB above where it
// started (one page is held at a time).
func TestExport100kMatchesTheGateway(t *testing.T) {
	if raceDetector {
		t.Skip("100,000 transactions: run without -race (go test ./... does)")
	}
	client := signedIn(t, sandbox.Options{}, history100k)
	wantRows, wantTotals := gatewayTotals(t, client, apiclient.TransactionFilter{})
	path := filepath.Join(t.TempDir(), "statement.csv")
	sum, growth := exportToFile(t, client, path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rows, totals := csvTotals(t, data)
	if rows != wantRows || sum.Kept != wantRows || rows < history100k {
		t.Fatalf("%d rows written, the gateway has %d", rows, wantRows)
	}
	sameTotals(t, totals, wantTotals)
	for currency, want := range wantTotals {
		if got := sum.Totals[currency].String(); got != want {
			if c, _ := apiclient.CompareDecimal(got, want); c != 0 {
				t.Errorf("the export's own total of %s is %s, want %s", currency, got, want)
			}
		}
	}
	if growth > 20<<20 {
		t.Fatalf("the heap grew %d MB while exporting", growth>>20)
	}
	t.Logf("%d rows, totals %s, heap growth %.1f MB", rows, sum.Totals, float64(growth)/(1<<20))
}

// BenchmarkExport100kCSV exports 100,000 transactions and more, every
// page over HTTP from the sandbox, to a CSV file: rows per second and the
// peak heap growth (MB) while it runs.
func BenchmarkExport100kCSV(b *testing.B) {
	client := signedIn(b, sandbox.Options{}, history100k)
	path := filepath.Join(b.TempDir(), "statement.csv")
	b.ReportAllocs()
	var rows int
	var growth uint64
	var elapsed time.Duration
	for b.Loop() {
		start := time.Now()
		sum, g := exportToFile(b, client, path)
		elapsed += time.Since(start)
		rows += sum.Kept
		growth = max(growth, g)
	}
	b.ReportMetric(float64(rows)/elapsed.Seconds(), "rows/s")
	b.ReportMetric(float64(growth)/(1<<20), "heap-growth-MB")
}
