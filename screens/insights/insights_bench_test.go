//go:build unix

package insights

import (
	"context"
	"net/http/httptest"
	"syscall"
	"testing"

	"cardterm/apiclient"
	"cardterm/domain/statement"
	"cardterm/sandbox"
)

// history100k reads alice's history with 100,000 older transactions
// added, every page over HTTP, as the screen's load reads them.
func history100k(b *testing.B) []apiclient.Transaction {
	b.Helper()
	s := sandbox.New(sandbox.Options{})
	if _, err := s.SeedTransactions("alice@demo.test", 100_000); err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(s)
	b.Cleanup(hs.Close)
	client := apiclient.New(apiclient.Config{BaseURL: hs.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	if _, err := client.Login(context.Background(), "alice@demo.test", "demo-pass"); err != nil {
		b.Fatal(err)
	}
	var all []apiclient.Transaction
	if _, err := statement.Walk(context.Background(), client, statement.Query{}, func(x *apiclient.Transaction) error {
		all = append(all, *x)
		return nil
	}, nil); err != nil {
		b.Fatal(err)
	}
	return all
}

// BenchmarkInsights100k adds up 100,000 transactions and more (read as the
// screen reads them) and sorts the three charts: the screen's work once
// the pages are read. Budget 50 ms. Besides the wall time (ns/op), which
// a loaded machine stretches, it reports the CPU time the process spent
// an operation (cpu-ms/op, from getrusage: user and system time of every
// thread, the collector's included).
func BenchmarkInsights100k(b *testing.B) {
	all := history100k(b)
	if len(all) < 100_000 {
		b.Fatalf("%d transactions", len(all))
	}
	b.ReportAllocs()
	before := cpuTime()
	n := 0
	for b.Loop() {
		n++
		a := NewAggregator()
		for i := range all {
			a.Add(&all[i])
		}
		currency := a.Currencies()[0]
		_ = a.Months(currency, 24)
		_ = a.Categories(currency, 20)
		_ = a.Merchants(currency, 20)
	}
	b.ReportMetric(float64(cpuTime()-before)/float64(n)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(len(all)), "transactions")
}

// cpuTime is the CPU time the process has used, in nanoseconds.
func cpuTime() int64 {
	var usage syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	return usage.Utime.Nano() + usage.Stime.Nano()
}
