package insights

import (
	"net/http"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox/gatewaytest"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/screens/transactions"
	"cardterm/ui/uitest"
)

func TestMain(m *testing.M) { screentest.Main(m) }

// app signs alice in with the Transactions and Spending screens, on the
// Spending screen.
func app(t *testing.T, opts ...screentest.Option) *screentest.App {
	t.Helper()
	a := screentest.New(t, screentest.Of(signin.New), append([]screentest.Option{
		screentest.WithScreen(screentest.Of(transactions.New), screentest.Of(New))}, opts...)...)
	a.SignInDirectly("alice@demo.test")
	a.Open(screenkit.InsightsScreen)
	return a
}

// Every page is read and added up: the months, the categories by their
// MCC names, the merchants, with declined and refunded apart.
func TestSpendingAtAGlance(t *testing.T) {
	a := app(t, screentest.WithSize(120, 40))
	s := a.Screen()
	for _, want := range []string{"Spending", "transactions · in EUR", "Spent ", "Refunded ", "Declined ", "[Months]", "Nov 2026", "› "} {
		if !strings.Contains(s, want) {
			t.Fatalf("no %q:\n%s", want, s)
		}
	}
	a.Keys("v")
	if s = a.Screen(); !strings.Contains(s, "[Categories]") || !strings.Contains(s, "Grocery stores, supermarkets") || strings.Contains(s, " 5411 ") {
		t.Fatalf("categories are not named by their MCC:\n%s", s)
	}
	a.Keys("v")
	if s = a.Screen(); !strings.Contains(s, "[Merchants]") || !strings.Contains(s, "Air France, Roissy FR") {
		t.Fatalf("no merchants:\n%s", s)
	}
	// alice is billed in EUR alone: c says so.
	a.Keys("c")
	if !strings.Contains(a.Notice(), "all the spending is in one currency") {
		t.Fatalf("notice %q", a.Notice())
	}
}

// enter on a bar opens the Transactions screen on the transactions behind
// it: the month's dates, the category's code, the merchant's name.
func TestABarOpensItsTransactions(t *testing.T) {
	a := app(t, screentest.WithSize(120, 40))
	a.Keys("enter") // the latest month
	s := a.Screen()
	if !strings.Contains(s, "2026-11-01 to 2026-11-30") || !strings.Contains(s, "Selected transaction") {
		t.Fatalf("the month's transactions are not listed:\n%s", s)
	}
	a.Open(screenkit.InsightsScreen)
	a.Keys("v", "v", "enter") // the largest merchant
	if s = a.Screen(); !strings.Contains(s, `search "`) {
		t.Fatalf("the merchant's transactions are not listed:\n%s", s)
	}
}

// The amounts of every shape count the same: the alternate shapes give the
// totals the reference shape gives.
func TestSpendingInAnotherShape(t *testing.T) {
	line := func(a *screentest.App) string {
		for _, l := range strings.Split(a.Screen(), "\n") {
			if strings.Contains(l, "Spent ") {
				return l
			}
		}
		return ""
	}
	want := line(app(t, screentest.WithSize(200, 40)))
	if got := line(app(t, screentest.WithSize(200, 40), screentest.WithAltShapes())); got != want || want == "" {
		t.Fatalf("alternate shapes: %q\nreference:        %q", got, want)
	}
}

// The screen at 80x24 and 200x60, in colour and under NO_COLOR.
func TestSpendingGoldens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		for _, noColor := range []bool{false, true} {
			a := app(t, screentest.WithSize(size[0], size[1]), screentest.WithNoColor(noColor))
			name := map[bool]string{false: "colour", true: "nocolor"}[noColor]
			name = strings.Join([]string{name, itoa(size[0]), itoa(size[1])}, "-")
			uitest.Golden(t, name+"-months", a.UI().BodyView())
			a.Keys("v")
			uitest.Golden(t, name+"-categories", a.UI().BodyView())
			a.Keys("v", "down")
			uitest.Golden(t, name+"-merchants", a.UI().BodyView())
			screentest.MustBeClean(t, name, a.Root.View().Content)
		}
	}
}

func itoa(n int) string {
	return strings.TrimSpace(strings.Repeat(" ", 0) + string(rune('0'+n/100%10)) + string(rune('0'+n/10%10)) + string(rune('0'+n%10)))
}

// Aggregator: spending counts money out that went through, in the billed
// currency; declined and money back are apart; currencies never mix.
func TestAggregatorKeepsKindsAndCurrenciesApart(t *testing.T) {
	a := NewAggregator()
	for _, x := range []apiclient.Transaction{
		{DateTime: "2026-11-02T10:00:00Z", Sign: "DEBIT", Status: "CONFIRMED", MCC: "5411", MerchantNameLocation: "Shop", BillingAmount: "10.10", BillingCurrency: "EUR", TransactionAmount: "11", TransactionCurrency: "USD"},
		{DateTime: "2026-11-03T10:00:00+01:00", Sign: "DEBIT", Status: "PENDING", MCC: "5411", MerchantNameLocation: "Shop", BillingAmount: "0.90", BillingCurrency: "EUR"},
		{DateTime: "2026-10-03T10:00:00Z", Sign: "DEBIT", Status: "CONFIRMED", MCC: "5812", MerchantNameLocation: "Cafe", TransactionAmount: "5", TransactionCurrency: "GBP"},
		{DateTime: "2026-10-04T10:00:00Z", Sign: "DEBIT", Status: "DECLINED", MCC: "5812", MerchantNameLocation: "Cafe", BillingAmount: "99", BillingCurrency: "EUR"},
		{DateTime: "2026-10-05T10:00:00Z", Sign: "CREDIT", Status: "CONFIRMED", MCC: "5411", MerchantNameLocation: "Shop", BillingAmount: "3", BillingCurrency: "EUR"},
		{DateTime: "2026-10-06T10:00:00Z", Sign: "DEBIT", Status: "REVERTED", MCC: "5411", MerchantNameLocation: "Shop", BillingAmount: "4", BillingCurrency: "EUR"},
		{DateTime: "2026-10-07T10:00:00Z", Sign: "DEBIT", Status: "CONFIRMED"},
	} {
		a.Add(&x)
	}
	if got := a.Spent.Totals.String(); got != "11.00 EUR, 5.00 GBP" {
		t.Errorf("spent %s", got)
	}
	if a.Declined.Totals.String() != "99.00 EUR" || a.Refunded.Totals.String() != "7.00 EUR" || a.NoAmount != 1 {
		t.Errorf("declined %s, refunded %s, no amount %d", a.Declined.Totals, a.Refunded.Totals, a.NoAmount)
	}
	months := a.Months("EUR", 12)
	if len(months) != 1 || months[0].Label != "Nov 2026" || months[0].Filter.DateFrom != "2026-11-01" || months[0].Filter.DateTo != "2026-11-30" {
		t.Errorf("months %+v", months)
	}
	cats := a.Categories("EUR", 5)
	if len(cats) != 1 || cats[0].Label != "Grocery stores, supermarkets" || cats[0].Filter.SearchKey != "5411" {
		t.Errorf("categories %+v", cats)
	}
	if m := a.Merchants("GBP", 5); len(m) != 1 || m[0].Label != "Cafe" || m[0].Filter.SearchKey != "Cafe" {
		t.Errorf("merchants %+v", m)
	}
	if a.First != "2026-10-03" || a.Last != "2026-11-03" {
		t.Errorf("period %s to %s", a.First, a.Last)
	}
}

// On a gateway that ignores ?page (the same page for ever, with ids or
// without) the Spending screen stops at the repeated page and shows the
// totals of the pages read, marked INCOMPLETE, with a notice of why.
func TestSpendingStopsOnARepeatedPage(t *testing.T) {
	for _, withIDs := range []bool{true, false} {
		gw := &gatewaytest.RepeatingPages{WithIDs: withIDs}
		a := app(t, screentest.WithSize(120, 40),
			screentest.WithGateway(func(next http.Handler) http.Handler { gw.Next = next; return gw }))
		s := a.Screen()
		if !strings.Contains(s, "3 transactions") || !strings.Contains(s, "INCOMPLETE") {
			t.Fatalf("ids %t: the totals of what was read are not shown as incomplete:\n%s", withIDs, s)
		}
		if n := a.Notice(); !strings.Contains(n, "answered page 2 with page 1 again") {
			t.Errorf("ids %t: notice %q", withIDs, n)
		}
		if gw.Served() > 3 {
			t.Errorf("ids %t: %d pages asked", withIDs, gw.Served())
		}
	}
}

// A new card with no transactions: the heading counts none without a
// dangling "in", and the chart says nothing was spent yet rather than
// "Nothing spent in ." with no currency.
func TestSpendingOfACardWithNoTransactions(t *testing.T) {
	a := screentest.New(t, screentest.Of(signin.New), screentest.WithSize(80, 24),
		screentest.WithScreen(screentest.Of(transactions.New), screentest.Of(New)))
	a.SignInDirectly("nora@demo.test")
	if err := a.Client.OrderCard(t.Context(), ""); err != nil {
		t.Fatal(err)
	}
	a.Open(screenkit.InsightsScreen)
	a.MustShow(t, "Spending  0 transactions", "Nothing spent yet: the card has no transactions.")
	a.MustNotShow(t, "· in", "spent in .")
}
