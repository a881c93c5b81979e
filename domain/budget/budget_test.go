package budget

import (
	"fmt"
	"path/filepath"
	"testing"

	"cardterm/apiclient"
)

func payment(id, at, amount, currency, category string) *apiclient.Transaction {
	return &apiclient.Transaction{ID: id, DateTime: at, Sign: apiclient.TxDebit, Status: apiclient.TxConfirmed,
		BillingAmount: apiclient.Decimal(amount), BillingCurrency: currency, MCCCategory: category, MCC: "5411"}
}

func TestTrackerCrossesEightyThenHundredOnce(t *testing.T) {
	book := Book{}
	book.Set(Budget{Currency: "EUR", Limit: "100"})
	book.Set(Budget{Currency: "EUR", Category: "groceries", Limit: "50.00"})
	tr := NewTracker(book, "2026-11")
	steps := []struct {
		amount string
		want   []string
	}{
		{"39.99", nil},
		{"0.01", []string{"groceries 80"}},
		{"40.00", []string{"Overall 80", "groceries 100"}},
		{"19.99", nil},
		{"0.01", []string{"Overall 100"}},
		{"5.00", nil},
	}
	for i, step := range steps {
		var got []string
		for _, c := range tr.Add(payment(fmt.Sprint(i), "2026-11-0"+fmt.Sprint(i+1)+"T10:00:00Z", step.amount, "EUR", "GROCERIES")) {
			got = append(got, fmt.Sprintf("%s %d", c.Budget.Name(), c.Threshold))
		}
		if fmt.Sprint(got) != fmt.Sprint(step.want) {
			t.Fatalf("step %d (%s): crossed %v, want %v", i, step.amount, got, step.want)
		}
	}
	p := tr.Progress()
	if p[0].Spent != "105.00" || p[0].Percent != 105 || p[0].Left != "-5.00" {
		t.Fatalf("overall progress %+v", p[0])
	}
}

func TestTrackerCountsOnlySpendingOfItsMonthAndCurrency(t *testing.T) {
	book := Book{Budgets: []Budget{{Currency: "EUR", Limit: "10"}}}
	tr := NewTracker(book, "2026-11")
	declined := payment("d", "2026-11-02T10:00:00Z", "9", "EUR", "")
	declined.Status = apiclient.TxDeclined
	refund := payment("r", "2026-11-02T10:00:00Z", "9", "EUR", "")
	refund.Sign = apiclient.TxCredit
	for _, x := range []*apiclient.Transaction{
		declined, refund,
		payment("o", "2026-10-31T23:59:59Z", "9", "EUR", ""),
		payment("u", "2026-11-02T10:00:00Z", "9", "USD", ""),
		payment("ok", "2026-11-30T23:00:00+00:00", "2.50", "EUR", ""),
	} {
		tr.Count(x)
	}
	if p := tr.Progress()[0]; p.Spent != "2.50" || p.Percent != 25 || p.Count != 1 {
		t.Fatalf("progress %+v", p)
	}
}

func TestCheckSaysWhichField(t *testing.T) {
	for _, c := range []struct {
		b     Budget
		field string
	}{
		{Budget{Currency: "eu", Limit: "1"}, "currency"},
		{Budget{Currency: "EUR", Limit: "1,5"}, "limit"},
		{Budget{Currency: "EUR", Limit: "0.00"}, "limit"},
		{Budget{Currency: "EUR", Limit: "-3"}, "limit"},
	} {
		if _, ok := Check(c.b)[c.field]; !ok {
			t.Errorf("%+v: no problem with %s (%v)", c.b, c.field, Check(c.b))
		}
	}
	if p := Check(Budget{Currency: "EUR", Limit: "399.90"}); p != nil {
		t.Errorf("a good budget refused: %v", p)
	}
}

func TestBookSurvivesSaveAndLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p", "budgets.json")
	var k Book
	k.Set(Budget{Currency: "EUR", Limit: "400"})
	k.Set(Budget{Currency: "EUR", Limit: "450"})
	k.Set(Budget{Currency: "CHF", Category: "TRAVEL", Limit: "90.5"})
	if err := k.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil || len(got.Budgets) != 2 || got.Budgets[1].Limit != "450" {
		t.Fatalf("loaded %+v, %v", got, err)
	}
	if !got.Remove(Budget{Currency: "CHF", Category: "travel"}) || len(got.Budgets) != 1 {
		t.Fatalf("remove failed: %+v", got)
	}
}

// An amount refused only for its size says so: "such as 400" would
// tell someone who typed 400 followed by twenty digits nothing.
func TestCheckSaysWhyALimitIsRefused(t *testing.T) {
	for _, tc := range []struct{ limit, want string }{
		{"12,5O", "must be an amount such as 400 or 399.90"},
		{"-5", "must be an amount such as 400 or 399.90"},
		{"1234567890123456", "must have at most 15 digits before the point"},
		{"10.123456789", "must have at most 8 digits after the point"},
		{"0.00", "must be more than 0"},
	} {
		if got := Check(Budget{Currency: "EUR", Limit: tc.limit})["limit"]; got != tc.want {
			t.Errorf("limit %q: %q, want %q", tc.limit, got, tc.want)
		}
	}
}
