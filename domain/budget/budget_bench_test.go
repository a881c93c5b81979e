package budget

import (
	"fmt"
	"testing"

	"cardterm/apiclient"
)

// BenchmarkBudgetsOver100kTransactions measures a month's progress over
// 100,000 transactions against three budgets.
func BenchmarkBudgetsOver100kTransactions(b *testing.B) {
	categories := []string{"GROCERIES", "TRAVEL", "RESTAURANTS", "SHOPPING"}
	list := make([]apiclient.Transaction, 100_000)
	for i := range list {
		list[i] = *payment(fmt.Sprint(i), fmt.Sprintf("2026-11-%02dT10:00:00Z", 1+i%28), fmt.Sprintf("%d.%02d", i%90, i%100), "EUR", categories[i%4])
	}
	book := Book{Budgets: []Budget{{Currency: "EUR", Limit: "400"}, {Currency: "EUR", Category: "GROCERIES", Limit: "100"}, {Currency: "EUR", Category: "Travel", Limit: "50"}}}
	b.ReportAllocs()
	for b.Loop() {
		tr := NewTracker(book, "2026-11")
		for i := range list {
			tr.Count(&list[i])
		}
		if p := tr.Progress(); p[0].Count != len(list) {
			b.Fatalf("counted %d", p[0].Count)
		}
	}
}
