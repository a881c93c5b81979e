// Package insights is the Spending screen: where the card's money went,
// added up from every page of the transactions (by month, by merchant
// category, by merchant), with declined payments and money back apart and
// each currency on its own. Its bars are drawn with lipgloss and read
// without colour; enter on a bar opens the Transactions screen on the
// transactions behind it.
package insights

import (
	"cardterm/ui/keymap"

	"context"
	"errors"
	"fmt"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/statement"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// chart is which bars the screen shows.
type chart int

const (
	byMonth chart = iota
	byCategory
	byMerchant
	byTag
	// budgetsView and recurringView are lists, not bars (views.go).
	budgetsView
	recurringView
	chartCount
)

var chartNames = [chartCount]string{"Months", "Categories", "Merchants", "Tags", "Budgets", "Recurring"}

type keyMap struct {
	Up, Down, Open, Chart, Currency, Budget key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Up:       keymap.Bind("insights.up"),
		Down:     keymap.Bind("insights.down"),
		Open:     keymap.Bind("insights.open"),
		Chart:    keymap.Bind("insights.chart"),
		Currency: keymap.Bind("insights.currency"),
		Budget:   keymap.Bind("insights.budget"),
	}
}

func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Open, k.Chart, k.Currency, k.Budget}
}
func (k keyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// loadProgressMsg is how far the read of every page is.
type loadProgressMsg struct {
	id   ui.RequestID
	at   statement.Progress
	done bool
}

// Screen is the Spending screen.
type Screen struct {
	screenkit.Base
	keys keyMap

	loadID   ui.RequestID
	loading  bool
	progress chan statement.Progress
	reached  statement.Progress
	loadErr  error
	// partial: the walk stopped before the end of the list (a page came
	// again, or the cap); the totals are of what was read.
	partial bool

	totals *Aggregator
	// holder is the budgets, recurring payments and this month's
	// transactions (holder.go).
	holder    *holderData
	chart     chart
	currency  int
	selection [chartCount]int

	// body is the frame, built when what it shows changes (frame.go).
	body string
}

// New builds the Spending screen.
func New(deps screenkit.Deps) *Screen {
	s := &Screen{Base: screenkit.NewBase(deps, screenkit.InsightsScreen, "Spending"), keys: newKeyMap()}
	s.offerBars(0)
	return s
}

// KeyMap implements ui.Screen.
func (s *Screen) KeyMap() help.KeyMap { return s.keys }

// CapturesKeys implements ui.Screen: nothing is typed here.
func (s *Screen) CapturesKeys() bool { return false }

// Enter reads the transactions the first time; r reads them again.
func (s *Screen) Enter() tea.Cmd {
	if s.totals != nil || s.loading {
		return nil
	}
	return s.load()
}

// load reads every page and adds them up, in the command: the screen
// gets the totals, never the transactions.
func (s *Screen) load() tea.Cmd {
	client := s.Deps.Client
	progress := make(chan statement.Progress, 1)
	s.loading, s.progress, s.reached, s.loadErr = true, progress, statement.Progress{Fraction: -1}, nil
	dir, now := s.Deps.HolderDir, s.Deps.Clock()
	cmd := ui.Start(s.Requests, &s.loadID, func(ctx context.Context) (*spending, error) {
		defer close(progress)
		read, err := readHolderData(dir, client.Session().Username, now)
		if err != nil {
			return nil, err
		}
		totals := NewAggregator()
		totals.TagsOf = read.notes.Get
		_, err = statement.Walk(ctx, client, statement.Query{}, func(x *apiclient.Transaction) error {
			totals.Add(x)
			read.add(x)
			return nil
		}, func(p statement.Progress) {
			select {
			case <-progress:
			default:
			}
			progress <- p
		})
		read.settle(now)
		return &spending{totals: totals, holder: read}, err
	})
	s.rebuild()
	id := s.loadID
	return tea.Batch(cmd, waitProgress(id, progress))
}

func waitProgress(id ui.RequestID, progress chan statement.Progress) tea.Cmd {
	return func() tea.Msg {
		p, ok := <-progress
		return loadProgressMsg{id: id, at: p, done: !ok}
	}
}

// Update implements ui.Screen.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	cmd := s.update(msg)
	return s, cmd
}

func (s *Screen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case loadProgressMsg:
		if msg.id != s.loadID || msg.done || !s.loading {
			return nil
		}
		s.reached = msg.at
		s.rebuild()
		return waitProgress(msg.id, s.progress)
	case ui.Result[*spending]:
		if msg.ID != s.loadID {
			return nil
		}
		return s.loaded(msg)
	case screenkit.FreshTransactionsMsg:
		return s.fresh(msg.List)
	case budgetsSavedMsg:
		return s.budgetsSaved(msg.book)
	case ui.RefreshMsg:
		return s.load()
	case tea.BackgroundColorMsg:
		s.rebuild()
	case tea.KeyPressMsg:
		return s.handleKey(msg)
	}
	return nil
}

// loaded takes the totals, or why there are none.
func (s *Screen) loaded(msg ui.Result[*spending]) tea.Cmd {
	s.loading = false
	defer s.rebuild()
	s.partial = errors.Is(msg.Err, statement.ErrStopped) && msg.Value != nil && msg.Value.totals.Transactions > 0
	if msg.Err != nil && !s.partial {
		s.loadErr = msg.Err
		return screenkit.ReadFailed("reading transactions", msg.Err, 404, 403)
	}
	s.totals, s.holder = msg.Value.totals, msg.Value.holder
	s.currency = 0
	s.selection = [chartCount]int{}
	if months := s.bars(); len(months) > 0 {
		s.selection[byMonth] = len(months) - 1 // the latest month
	}
	if s.partial {
		return ui.Notify(theme.ToneWarn, "Spending counts only the pages read: "+sanitize.Text(msg.Err.Error()))
	}
	return nil
}

func (s *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if s.totals == nil {
		return nil
	}
	if key.Matches(msg, s.keys.Budget) {
		return s.openBudgetForm()
	}
	bars := s.bars()
	sel := &s.selection[s.chart]
	switch {
	case key.Matches(msg, s.keys.Up):
		*sel = max(*sel-1, 0)
	case key.Matches(msg, s.keys.Down):
		*sel = min(*sel+1, max(len(bars)-1, 0))
	case key.Matches(msg, s.keys.Chart):
		s.chart = (s.chart + 1) % chartCount
	case key.Matches(msg, s.keys.Currency):
		if n := len(s.totals.Currencies()); n > 1 {
			s.currency = (s.currency + 1) % n
			s.selection = [chartCount]int{}
			if months := s.monthBars(); len(months) > 0 {
				s.selection[byMonth] = len(months) - 1
			}
		} else {
			return ui.Notify(theme.ToneInfo, "all the spending is in one currency")
		}
	case key.Matches(msg, s.keys.Open):
		if *sel < len(bars) {
			return s.open(bars[*sel])
		}
		return nil
	default:
		return nil
	}
	s.rebuild()
	return nil
}

// open shows the Transactions screen on the bar's transactions.
func (s *Screen) open(b *Bucket) tea.Cmd {
	filter, tag := b.Filter, b.Tag
	return tea.Sequence(
		func() tea.Msg { return screenkit.ShowTransactionsMsg{Filter: filter, Tag: tag} },
		func() tea.Msg { return ui.NavigateMsg{To: screenkit.TransactionsScreen} },
	)
}

// currencyShown is the currency the bars are in, "" before any.
func (s *Screen) currencyShown() string {
	if s.totals == nil {
		return ""
	}
	cur := s.totals.Currencies()
	if s.currency >= len(cur) {
		return ""
	}
	return cur[s.currency]
}

// barRows is how many bars fit under the heading.
func (s *Screen) barRows() int { return max(s.Height-headingRows-1, 3) }

// bars are the bars of the chart shown.
func (s *Screen) bars() []*Bucket {
	if s.totals == nil {
		return nil
	}
	cur := s.currencyShown()
	switch s.chart {
	case byCategory:
		return s.totals.Categories(cur, s.barRows())
	case byMerchant:
		return s.totals.Merchants(cur, s.barRows())
	case byTag:
		return s.totals.Tags(cur, s.barRows())
	case budgetsView, recurringView:
		return nil
	}
	return s.monthBars()
}

func (s *Screen) monthBars() []*Bucket {
	return s.totals.Months(s.currencyShown(), s.barRows())
}

// SetSize implements ui.Screen.
func (s *Screen) SetSize(width, height int) {
	s.Width, s.Height = width, height
	if bars := s.bars(); s.totals != nil {
		for c := range s.selection {
			s.selection[c] = min(s.selection[c], max(len(bars)-1, 0))
		}
	}
	s.rebuild()
}

// View implements ui.Screen: the frame built in Update and SetSize.
func (s *Screen) View() string { return s.body }

// summaryOf writes a bucket's sum in a currency (the heading names it)
// with its count: "1,234.50 (12)".
func summaryOf(b *Bucket, currency string) string {
	t := b.Totals[currency]
	if t == nil {
		return "none"
	}
	return fmt.Sprintf("%s (%d)", groupDigits(t.String()), t.Count())
}
