package screens

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

func txnRig(t *testing.T, user string) *rig {
	return newRig(t, user, func(d Deps) ui.Screen { return NewTransactions(d) })
}

func TestTransactionsListDetailAndStandOut(t *testing.T) {
	r := txnRig(t, "alice@demo.test")
	v := r.want("page 1", "Date (UTC)", "Merchant", "Selected transaction", "channel", "authorizationCode", "row 1 of 50")
	tr := r.m.s.(*Transactions)
	// Move to a DECLINED row: its reason shows in the detail pane.
	for i, x := range tr.rows {
		if x.Status == apiclient.TxDeclined {
			tr.table.SetCursor(i)
			r.want("Declined", *x.DeclineReason, x.MCC)
			break
		}
	}
	_ = v
	// DECLINED and REVERTED are badges: in colour they carry the tone.
	colour := theme.New(true, false)
	tr.deps.Styles = &colour
	raw := uitest.Content(tr.View(100, 38))
	for status, tone := range txnStandOut {
		if strings.Contains(uitest.Plain(raw), status) && !strings.Contains(raw, colour.Badge(status, tone)) {
			t.Errorf("%s does not stand out", status)
		}
	}
}

func TestTransactionsFilterAndPaging(t *testing.T) {
	r := txnRig(t, "alice@demo.test")
	r.keys("p")
	if !strings.Contains(r.notices(), "already on the first page") {
		t.Fatal(r.notices())
	}
	r.keys("f")
	r.want("Filter transactions", "From date", "Category", "categories seen")
	r.typ("2026-11-01") // only one date
	r.keys("tab", "tab", "tab")
	r.typ("travel")
	r.keys("enter")
	r.want("is required with dateFrom", "travel")
	r.keys("ctrl+u", "up") // the error focused To date; clear it, go back to From
	r.keys("ctrl+u", "enter")
	v := r.want("category TRAVEL", "page 1")
	tr := r.m.s.(*Transactions)
	if len(tr.rows) == 0 {
		t.Fatal("no TRAVEL rows")
	}
	for _, x := range tr.rows {
		if x.MCCCategory != "TRAVEL" {
			t.Fatalf("row %s in %s", x.ID, x.MCCCategory)
		}
	}
	_ = v
	// Unfiltered list pages forward and back.
	r.keys("c")
	r.want("page 1")
	first := r.m.s.(*Transactions).rows[0].ID
	r.keys("n")
	r.want("page 2")
	if r.m.s.(*Transactions).rows[0].ID == first {
		t.Fatal("page 2 shows page 1")
	}
	r.keys("p")
	r.want("page 1")
	// Past the end: stays on the last page with a notice.
	for i := 0; i < 10; i++ {
		r.keys("n")
	}
	if !strings.Contains(r.notices(), "no more transactions") && !strings.Contains(r.notices(), "last page") {
		t.Fatal(r.notices())
	}
	if len(r.m.s.(*Transactions).rows) == 0 {
		t.Fatal("the last page must stay on screen")
	}
}

func TestTransactionsNoCard(t *testing.T) {
	r := txnRig(t, "nora@demo.test")
	r.want("No card yet")
}

// bigTransactions builds a screen holding n rows, without a gateway.
func bigTransactions(n int) *Transactions {
	styles := theme.New(true, false)
	tr := NewTransactions(Deps{Requests: ui.NewRequests(), Styles: &styles, Now: time.Now})
	rows := make([]apiclient.Transaction, n)
	statuses := []string{"CONFIRMED", "PENDING", "DECLINED", "REVERTED"}
	for i := range rows {
		reason := "INSUFFICIENT_FUNDS"
		rows[i] = apiclient.Transaction{ID: fmt.Sprintf("t%06d", i), DateTime: "2026-11-20T18:00:00Z", Sign: "DEBIT",
			MerchantNameLocation: fmt.Sprintf("Merchant %d, Paris FR", i), MCC: "5411", MCCCategory: "GROCERIES",
			TransactionAmount: "12.50", TransactionCurrency: "EUR", BillingAmount: "12.50", BillingCurrency: "EUR",
			Status: statuses[i%4], DeclineReason: &reason}
	}
	tr.loaded = true
	tr.setRows(rows)
	return tr
}

func BenchmarkTransactionsKeyPress100k(b *testing.B) {
	tr := bigTransactions(100_000)
	tr.View(100, 38)
	down, up := uitest.Key("j"), uitest.Key("k")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := down
		if i%200 >= 100 {
			k = up
		}
		tr.Update(k)
		_ = tr.View(100, 38)
	}
}

func TestTransactionsKeyPressBudget100k(t *testing.T) {
	tr := bigTransactions(100_000)
	tr.View(100, 38)
	tr.Update(uitest.Key("G"))
	v := uitest.Plain(tr.View(100, 38))
	if !strings.Contains(v, "row 100,000 of 100,000") || !strings.Contains(v, "t099999") {
		t.Fatalf("end of the list:\n%s", v)
	}
}
