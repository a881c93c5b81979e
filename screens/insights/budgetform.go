package insights

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/domain/budget"
	"cardterm/screens/screenkit"
	"cardterm/ui/form"
)

// The budget form (b): a monthly limit in a currency, over every
// category or one. It is a layer over the Spending screen; saving writes
// the profile's budgets file in a command and the screen measures the
// month again. An empty limit removes the budget.

// openBudgetForm opens the form on the currency shown and, on the
// Categories chart, the selected category.
func (s *Screen) openBudgetForm() tea.Cmd {
	category := ""
	if bars := s.bars(); s.chart == byCategory && s.selection[byCategory] < len(bars) {
		category = bars[s.selection[byCategory]].Label
	}
	currency, limit := s.currencyShown(), ""
	if s.holder != nil {
		for _, b := range s.holder.book.Budgets {
			if b.Currency == currency && strings.EqualFold(b.Category, category) {
				limit = b.Limit
			}
		}
	}
	f := form.New(s.Deps.Styles, form.Spec{
		Title:  "Monthly budget",
		Lines:  []string{"Kept on this machine, with the profile: the gateway has no budgets.", "An alert comes when a payment takes it past 80% and 100%."},
		Submit: "save",
		Note:   "an empty category is the overall budget; an empty limit removes the budget",
		Fields: []form.Field{
			{Key: "currency", Label: "Currency", Value: currency, Placeholder: "EUR", CharLimit: 3,
				Check: func(v string) string {
					return budget.Check(budget.Budget{Currency: strings.ToUpper(v), Limit: "1"})["currency"]
				}},
			{Key: "category", Label: "Category", Value: category, Placeholder: "overall (every category)", CharLimit: 80},
			{Key: "limit", Label: "Limit a month", Value: limit, Placeholder: "400.00", CharLimit: 24,
				Check: func(v string) string {
					if v == "" {
						return ""
					}
					return budget.Check(budget.Budget{Currency: "EUR", Limit: v})["limit"]
				}},
		},
	})
	book := budget.Book{}
	if s.holder != nil {
		book.Budgets = append(book.Budgets, s.holder.book.Budgets...)
	}
	dir := s.Deps.HolderDir
	return screenkit.OpenLocalForm(screenkit.LocalForm{Form: f, Requests: s.Requests, Saved: "budget saved",
		Save: func(f *form.Form) func() (tea.Msg, error) {
			b := budget.Normal(budget.Budget{Currency: f.Value("currency"), Category: f.Value("category"), Limit: f.Value("limit")})
			if b.Limit == "" {
				book.Remove(b)
			} else {
				book.Set(b)
			}
			return func() (tea.Msg, error) { return budgetsSavedMsg{book: book}, saveBudgets(dir, book) }
		}})
}
