package transactions

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui/uitest"
)

// The cells formatted once per page read as the list always wrote them:
// the date to the minute, the amount signed with its currency, what is
// not an ISO date as sent.
func TestPageCellsFormatDatesAndAmounts(t *testing.T) {
	rows := []apiclient.Transaction{
		{DateTime: "2026-11-20T18:00:00Z", Sign: apiclient.TxDebit, TransactionAmount: "12.50", TransactionCurrency: "EUR"},
		{DateTime: "yesterday", Sign: apiclient.TxCredit, BillingAmount: "3.00", BillingCurrency: "USD"},
		{DateTime: "", Sign: "", TransactionAmount: "", TransactionCurrency: ""},
		{DateTime: "2026-11-21T07:05:59.123+01:00", Sign: "OTHER", TransactionAmount: "1", BillingCurrency: "GBP"},
	}
	want := [][2]string{{"2026-11-20 18:00", "-12.50 EUR"}, {"yesterday", "+3.00 USD"}, {"", notGivenCell}, {"2026-11-21 07:05", "1 GBP"}}
	cells := newPageCells(rows, screenkit.RecordShape{})
	for row, w := range want {
		date, ok := cells.cell(row, 0)
		amount, ok2 := cells.cell(row, 3)
		if !ok || !ok2 || date != w[0] || amount != w[1] {
			t.Errorf("row %d: %q %q, want %q %q", row, date, amount, w[0], w[1])
		}
		if w[1] == notGivenCell {
			w[1] = ""
		}
		if got := signedAmount(&rows[row]); got != w[1] {
			t.Errorf("signedAmount of row %d = %q, want %q", row, got, w[1])
		}
	}
	if _, ok := cells.cell(0, 1); ok {
		t.Error("the merchant is read from the record, not formatted")
	}
}

// A key press alone (no resize) brings the detail pane to the row it
// selects; the pane is built in Update, not in View.
func TestDetailFollowsTheCursorOnAKeyPress(t *testing.T) {
	tr := bigTransactions(10)
	if v := uitest.Plain(tea.NewView(tr.View())); !strings.Contains(v, "t000000") {
		t.Fatalf("the first row's id is not in the pane:\n%s", v)
	}
	tr.Update(uitest.Key("j"))
	tr.Update(uitest.Key("j"))
	v := uitest.Plain(tea.NewView(tr.View()))
	if !strings.Contains(v, "t000002") || strings.Contains(v, "t000000") {
		t.Fatalf("after two downs the pane does not show the third row:\n%s", v)
	}
	if !strings.Contains(v, "Merchant 2, Paris FR") {
		t.Fatalf("the third row is not in the list:\n%s", v)
	}
}

// When the terminal's background is learnt the styles change in place:
// the heading and the pane are drawn again in the new theme.
func TestThemeChangeRedrawsHeadingAndPane(t *testing.T) {
	tr := bigTransactions(10)
	before := tr.View()
	*tr.Deps.Styles = theme.New(false, false)
	tr.Update(tea.BackgroundColorMsg{})
	after := tr.View()
	if before == after {
		t.Fatal("the frame did not change with the theme")
	}
	head := strings.SplitN(after, "\n", 2)[0]
	if want := tr.Deps.Styles.Title.Render("Transactions"); !strings.HasPrefix(head, want) {
		t.Fatalf("the heading is not in the new theme: %q, want it to start with %q", head, want)
	}
}
