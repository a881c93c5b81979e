package insights

import (
	"errors"
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/budget"
	"cardterm/domain/ledger"
	"cardterm/domain/notes"
	"cardterm/domain/recurring"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// spending is what one read of every page gives the screen.
type spending struct {
	totals *Aggregator
	holder *holderData
}

// holderData is the holder's own view of the history: budgets measured
// over this month, recurring payments found, notes for tags. It keeps
// this month's transactions (a few hundred at most) so a budget changed
// on the screen is measured again without a read.
type holderData struct {
	dir, user string
	notes     *notes.Book
	book      budget.Book
	month     string
	thisMonth []apiclient.Transaction
	tracker   *budget.Tracker
	detector  *recurring.Detector
	found     []recurring.Series
}

// readHolderData reads the profile's budgets and the user's notes, in the
// load's command.
func readHolderData(dir, user string, now time.Time) (*holderData, error) {
	h := &holderData{dir: dir, user: user, month: budget.Month(now), detector: recurring.NewDetector()}
	if dir != "" {
		var err error
		if h.book, err = budget.Load(budget.File(dir)); err != nil {
			return nil, err
		}
		if h.notes, err = notes.Load(notes.File(dir, user)); err != nil {
			return nil, err
		}
	}
	h.tracker = budget.NewTracker(h.book, h.month)
	return h, nil
}

// add takes a transaction of the walk.
func (h *holderData) add(x *apiclient.Transaction) {
	h.detector.Add(x)
	if h.inMonth(x) {
		h.thisMonth = append(h.thisMonth, *x)
		h.tracker.Count(x)
	}
}

// settle finds the recurring payments once the walk is done.
func (h *holderData) settle(now time.Time) { h.found = h.detector.Found(now) }

// inMonth says the transaction is of the month the budgets measure.
func (h *holderData) inMonth(x *apiclient.Transaction) bool {
	t, ok := ledger.ParseTime(x.DateTime)
	return ok && budget.Month(t) == h.month
}

// budgetsSavedMsg says the budgets' file now holds book.
type budgetsSavedMsg struct{ book budget.Book }

// budgetsSaved measures this month again against the new budgets.
func (s *Screen) budgetsSaved(book budget.Book) tea.Cmd {
	h := s.holder
	if h == nil {
		return nil
	}
	h.book, h.tracker = book, budget.NewTracker(book, h.month)
	for i := range h.thisMonth {
		h.tracker.Count(&h.thisMonth[i])
	}
	s.rebuild()
	return nil
}

// fresh takes what the alerts found new: the budgets it crosses and the
// recurring payments it changes are told, as the decline alerts are.
func (s *Screen) fresh(list []apiclient.Transaction) tea.Cmd {
	h := s.holder
	if h == nil || s.totals == nil {
		return nil
	}
	before := map[string]recurring.Series{}
	for _, r := range h.found {
		before[r.Merchant+"/"+r.Currency] = r
	}
	var cmds []tea.Cmd
	for i := range list {
		x := &list[i]
		s.totals.Add(x)
		h.detector.Add(x)
		if h.inMonth(x) {
			h.thisMonth = append(h.thisMonth, *x)
			for _, c := range h.tracker.Add(x) {
				cmds = append(cmds, s.tell(crossingTone(c), "Budget", crossingText(c))...)
			}
		}
	}
	h.settle(s.Deps.Clock())
	for _, r := range h.found {
		was, known := before[r.Merchant+"/"+r.Currency]
		switch {
		case !known:
			cmds = append(cmds, s.tell(theme.ToneInfo, "New recurring payment", sanitize.Text(fmt.Sprintf("%s, %s %s %s", r.Merchant, r.Interval.Name, r.Amount, r.Currency)))...)
		case r.PriceChanged && len(r.Payments) > len(was.Payments):
			cmds = append(cmds, s.tell(theme.ToneWarn, "Price change", sanitize.Text(fmt.Sprintf("%s: %s → %s %s", r.Merchant, r.Previous, r.Amount, r.Currency)))...)
		}
	}
	s.rebuild()
	return tea.Batch(cmds...)
}

// tell is a notice everywhere and a desktop notification where the
// terminal shows one, as the decline alerts.
func (s *Screen) tell(tone theme.Tone, title, body string) []tea.Cmd {
	cmds := []tea.Cmd{ui.NotifyEverywhere(tone, title+": "+body)}
	if n := s.Deps.Alerts.Desktop.Notify("cardterm: "+title, body); n != nil {
		cmds = append(cmds, n)
	}
	return cmds
}

func crossingTone(c budget.Crossing) theme.Tone {
	if c.Threshold >= 100 {
		return theme.ToneDanger
	}
	return theme.ToneWarn
}

// crossingText: "Overall EUR budget at 82% (328.00 of 400.00)".
func crossingText(c budget.Crossing) string {
	return sanitize.Text(fmt.Sprintf("%s %s budget at %d%% (%s of %s)", c.Budget.Name(), c.Budget.Currency, c.Percent, c.Spent, c.Budget.Limit))
}

// saveBudgets writes the budgets' file; the command the form runs.
func saveBudgets(dir string, book budget.Book) error {
	if dir == "" {
		return errors.New("no profile folder to keep budgets in")
	}
	return book.Save(budget.File(dir))
}
