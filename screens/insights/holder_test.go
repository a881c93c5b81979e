package insights

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/domain/budget"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui/uitest"
)

// showView presses v until the view named is shown.
func showView(t *testing.T, a *screentest.App, name string) {
	t.Helper()
	for range chartCount {
		if strings.Contains(a.Screen(), "["+name+"]") {
			return
		}
		a.Keys("v")
	}
	t.Fatalf("no view %s:\n%s", name, a.Screen())
}

// b opens the budget form as a layer; saving writes the profile's file
// and the Budgets view shows the month's progress exactly.
func TestBudgetFormSavesAndTheViewShowsProgress(t *testing.T) {
	dir := t.TempDir()
	a := app(t, screentest.WithSize(120, 40), screentest.WithHolderDir(dir))
	a.Keys("b")
	if top, _ := a.UI().TopLayer(); !isFormLayer(top) {
		t.Fatalf("b opened %T, not the budget form", top)
	}
	a.Keys("tab", "tab")
	a.Type("5000,5")
	a.Keys("ctrl+s")
	if s := a.Screen(); !strings.Contains(s, "must be an amount") {
		t.Fatalf("a bad limit is not refused under its field:\n%s", s)
	}
	a.Keys("backspace", "backspace")
	a.Keys("ctrl+s")
	if top, open := a.UI().TopLayer(); open || !strings.Contains(a.Notice(), "budget saved") {
		t.Fatalf("the form is still open (%T), notice %q", top, a.Notice())
	}
	book, err := budget.Load(budget.File(dir))
	if err != nil || len(book.Budgets) != 1 || book.Budgets[0].Limit != "5000" || book.Budgets[0].Currency != "EUR" {
		t.Fatalf("kept %+v %v", book, err)
	}
	showView(t, a, "Budgets")
	if s := a.Screen(); !strings.Contains(s, "Overall") || !strings.Contains(s, "4,051.46 of 5,000 EUR   81%  left 948.54") {
		t.Fatalf("the Budgets view:\n%s", s)
	}
}

// A payment that takes a budget past 80%, then one past 100%, each raise
// an alert (a notice everywhere), and the gauge moves.
func TestPaymentsCrossingABudgetAlert(t *testing.T) {
	dir := t.TempDir()
	book := budget.Book{Budgets: []budget.Budget{{Currency: "CHF", Limit: "100"}}}
	if err := book.Save(budget.File(dir)); err != nil {
		t.Fatal(err)
	}
	a := app(t, screentest.WithSize(120, 40), screentest.WithHolderDir(dir))
	pay := func(id, amount string) {
		a.Drive(screenkit.FreshTransactionsMsg{List: []apiclient.Transaction{{ID: id, DateTime: "2026-11-22T09:00:00Z",
			Sign: apiclient.TxDebit, Status: apiclient.TxPending, MerchantNameLocation: "Migros, Zurich CH",
			BillingAmount: apiclient.Decimal(amount), BillingCurrency: "CHF"}}})
	}
	pay("p1", "79.99")
	if n := a.Notice(); strings.Contains(n, "Budget") {
		t.Fatalf("an alert under 80%%: %q", n)
	}
	pay("p2", "0.01")
	if n := a.Notice(); !strings.Contains(n, "Budget: Overall CHF budget at 80% (80.00 of 100)") {
		t.Fatalf("no 80%% alert: %q", n)
	}
	pay("p3", "25.00")
	if n := a.Notice(); !strings.Contains(n, "Budget: Overall CHF budget at 105% (105.00 of 100)") {
		t.Fatalf("no 100%% alert: %q", n)
	}
	showView(t, a, "Budgets")
	if s := a.Screen(); !strings.Contains(s, "105.00 of 100 CHF  105%  over 5.00") {
		t.Fatalf("the gauge did not move:\n%s", s)
	}
}

// The Recurring view lists the demo history's subscriptions with their
// interval, monthly cost, next date and flags.
func TestRecurringViewListsTheDemoSubscriptions(t *testing.T) {
	a := app(t, screentest.WithSize(120, 40), screentest.WithHolderDir(t.TempDir()))
	showView(t, a, "Recurring")
	s := a.Screen()
	for _, want := range []string{
		"Netflix Premium, Los Gatos US", "monthly", "17.99 EUR", "next 2026-12-01",
		"Basic-Fit Gym, Paris FR", "weekly", "43.29/mo",
		"The Guardian, London GB", "price 14.04→16.38",
		"Headspace, Santa Monica US", "missed",
	} {
		if !strings.Contains(s, want) {
			t.Fatalf("no %q in the Recurring view:\n%s", want, s)
		}
	}
}

// The new views at 80x24 and 200x60 (reviewed goldens).
func TestHolderViewGoldens(t *testing.T) {
	dir := t.TempDir()
	book := budget.Book{Budgets: []budget.Budget{{Currency: "EUR", Limit: "5000"}, {Currency: "EUR", Category: "GROCERIES", Limit: "300"}}}
	if err := book.Save(budget.File(dir)); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes-alice@demo.test.json"), []byte(`{}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		a := app(t, screentest.WithSize(size[0], size[1]), screentest.WithHolderDir(dir), screentest.WithNoColor(true))
		name := itoa(size[0]) + "x" + itoa(size[1])
		for _, view := range []string{"Budgets", "Recurring", "Tags"} {
			showView(t, a, view)
			uitest.Golden(t, name+"-"+strings.ToLower(view), a.UI().BodyView())
		}
		a.Keys("b")
		uitest.Golden(t, name+"-budget-form", a.UI().BodyView())
	}
}

func isFormLayer(l any) bool { _, ok := l.(*screenkit.FormLayer); return ok }

// The Budgets and Recurring lists have nothing to select: ↑/↓ are not
// offered there (the footer offered them and they did nothing), and come
// back on a chart of bars.
func TestArrowsOfferedOnlyWhereABarIsSelected(t *testing.T) {
	a := app(t, screentest.WithSize(200, 40))
	for _, tc := range []struct {
		view   string
		arrows bool
	}{{"Months", true}, {"Categories", true}, {"Budgets", false}, {"Recurring", false}, {"Months", true}} {
		showView(t, a, tc.view)
		lines := strings.Split(a.Screen(), "\n")
		footer := lines[len(lines)-1]
		if got := strings.Contains(footer, "↑/k up"); got != tc.arrows {
			t.Errorf("%s: the footer offers ↑/k %v, want %v: %s", tc.view, got, tc.arrows, footer)
		}
	}
}
