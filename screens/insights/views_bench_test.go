package insights

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/domain/budget"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui/uitest"
)

// BenchmarkSpendingViewKeyPress measures v (the next view) with the
// Budgets and Recurring views among those it cycles through: Update and
// View of the whole frame at 120x40, two budgets kept, the demo's
// subscriptions found. Budget: a millisecond a key.
func BenchmarkSpendingViewKeyPress(b *testing.B) {
	dir := b.TempDir()
	book := budget.Book{Budgets: []budget.Budget{{Currency: "EUR", Limit: "5000"}, {Currency: "EUR", Category: "GROCERIES", Limit: "300"}}}
	if err := book.Save(budget.File(dir)); err != nil {
		b.Fatal(err)
	}
	a := screentest.NewSignedIn(b, screentest.Of(signin.New), "alice@demo.test", screentest.WithScreen(screentest.Of(New)),
		screentest.WithHolderDir(dir))
	a.Resize(120, 40)
	a.Keys("1")
	screentest.MustShow(b, a.Screen(), "Spent ")
	uitest.BenchKeyPresses(b, func(k tea.KeyPressMsg) {
		a.Root, _ = a.Root.Update(k)
		_ = a.Root.View()
	}, "v", "v", 1)
}
