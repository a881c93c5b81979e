// Package transactions is the Transactions screen: the card's
// transactions a page at a time, the gateway's filters, a quick filter
// over the page and a detail pane for the selected row.
package transactions

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/lazy"
	"cardterm/domain/ledger"
	"cardterm/domain/notes"
	"cardterm/domain/statement"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// transactionLoad is the answer to one page request, with what was asked.
type transactionLoad struct {
	filter apiclient.TransactionFilter
	page   apiclient.TransactionPage
}

// Screen lists the card's transactions newest first, a page at a time,
// with the gateway's filters and a detail pane for the selected row.
type Screen struct {
	screenkit.Base
	keys keyMap

	table table.Table
	rows  []apiclient.Transaction
	// shape says which columns read the records' own fields (a gateway
	// answering in its own shape).
	shape screenkit.RecordShape
	// filter is what the rows on screen answer (Page included).
	filter apiclient.TransactionFilter
	loaded bool

	loadID  ui.RequestID
	loading bool
	// asked is the filter of the request in flight.
	asked   apiclient.TransactionFilter
	loadErr error
	// atEnd is set when a next page came back empty.
	atEnd bool

	// categories seen so far, offered in the filter form.
	categories map[string]bool
	// filterLoadID is the load the filter form (a layer) asked for.
	filterLoadID ui.RequestID

	// exportCheckID is the check of the name the export's form (a layer)
	// asks for (export.go); export is the export running.
	exportCheckID ui.RequestID
	export        *exportRun

	// alerts watches for new and declined transactions (alerts.go).
	alerts alerts
	// notes are the holder's notes and tags; tag, when set, lists the
	// transactions carrying it, from every page (notes.go).
	notes *notes.Book
	tag   string

	// frame is what View draws besides the table, built in Update and
	// SetSize (frame.go).
	frame frame
}

// New builds the transactions screen.
func New(deps screenkit.Deps) *Screen {
	t := &Screen{Base: screenkit.NewBase(deps, screenkit.TransactionsScreen, "Transactions"), keys: newKeyMap(deps.HolderDir != ""), categories: map[string]bool{}}
	t.table = table.New(deps.Styles, transactionColumns(false, t.shape))
	return t
}

// transactionNarrowBelow is the body width under which the category column goes
// (the detail pane still shows it): the full table needs 73 cells, and an
// 80-column terminal leaves about 62, which cut off the amount and status.
const transactionNarrowBelow = 73

// transactionColumns lays out the table; narrow hides the category (the detail
// pane still shows it). The status stays the last column
// (highlightStatuses relies on it). A column reading one of the records'
// own fields is titled after it.
func transactionColumns(narrow bool, shape screenkit.RecordShape) []table.Column {
	merchantMin := 14
	if narrow {
		merchantMin = 10
	}
	cols := []table.Column{{Title: "Date (UTC)", Width: 16}, {Title: "Merchant", Min: merchantMin},
		{Title: "Category", Min: 8, Hidden: narrow},
		{Title: "Amount", Min: 10, Right: true}, {Title: "Status", Width: 10}}
	for i := range cols {
		if i != amountColumn {
			cols[i].Title = shape.FallbackTitle(i, cols[i].Title)
		}
	}
	return cols
}

// transactionRecordColumns are the wire names each column reads, and what a field
// of another gateway's shape should be called to stand in for it. Made at
// first use: joining the name lists before main would cost every start.
var transactionRecordColumns = lazy.Value[[]screenkit.RecordColumn]{New: func() []screenkit.RecordColumn {
	return []screenkit.RecordColumn{
		{Known: []string{"dateTime"}, Hints: []string{"date", "time", "created", "occurred", "posted"}, Kind: screenkit.DateValue},
		{Known: []string{"merchantNameLocation"}, Hints: []string{"merchant", "description", "name", "title"}},
		{Known: slices.Concat([]string{"mccCategory"}, ledger.TransactionCategoryName), Hints: []string{"category", "mcc"}},
		{Known: slices.Concat([]string{"transactionAmount", "billingAmount"}, adoptedAmounts()), Hints: []string{"amount", "value", "total"}, Kind: screenkit.AmountValue},
		{Known: []string{"status"}, Hints: []string{"status", "state"}},
	}
}}

// KeyMap implements ui.Screen (the forms are layers with their own).
func (t *Screen) KeyMap() help.KeyMap { return t.keys }

// CapturesKeys implements ui.Screen: the table's quick filter takes every
// letter.
func (t *Screen) CapturesKeys() bool { return t.table.Filtering() }

// Enter loads the page on screen again (first page the first time).
func (t *Screen) Enter() tea.Cmd { return t.load(t.filter) }

func (t *Screen) load(f apiclient.TransactionFilter) tea.Cmd {
	client := t.Deps.Client
	t.loading, t.asked = true, f
	t.staleFrame()
	if t.tag != "" {
		return t.loadTagged(f)
	}
	return ui.Start(t.Requests, &t.loadID, func(ctx context.Context) (transactionLoad, error) {
		p, err := client.Transactions(ctx, f)
		return transactionLoad{filter: f, page: p}, err
	})
}

// Update implements ui.Screen; what the next frame draws besides the
// table is brought up to date before it returns.
func (t *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	cmd := t.update(msg)
	t.refreshFrame()
	return t, cmd
}

func (t *Screen) update(msg tea.Msg) tea.Cmd {
	if cmd, ok := t.notesUpdate(msg); ok {
		return cmd
	}
	switch msg := msg.(type) {
	case ui.Result[transactionLoad]:
		if msg.ID != t.loadID {
			return nil
		}
		return t.loaded1(msg)
	case exportProgressMsg:
		return t.exportProgress(msg)
	case ui.Result[statement.Summary]:
		if t.export == nil || msg.ID != t.export.id {
			return nil
		}
		return t.exportDone(msg)
	case ui.SessionStartedMsg:
		return tea.Batch(t.startAlerts(), t.loadNotes())
	case alertTickMsg:
		return t.alertTicked(msg)
	case alertReadMsg:
		return t.alertRead(msg)
	case screenkit.ShowTransactionsMsg:
		// Another screen (Spending) asks for these transactions: the quick
		// filter gives way to them, and the forms close (filtered,
		// exportChecked).
		// The filter is the screen's at once: entering the screen next
		// reads it, not the one before.
		t.table.ClearFilter()
		t.filter, t.tag = msg.Filter, msg.Tag
		return t.load(msg.Filter)
	case ui.OpenViewMsg:
		return t.openView(msg.View)
	case ui.RefreshMsg:
		return t.load(t.filter)
	case ui.BodyMouseMsg:
		return t.mouse(msg)
	case tea.BackgroundColorMsg:
		t.staleFrame() // the theme changed
	case tea.KeyPressMsg:
		return t.handleKey(msg)
	}
	return nil
}

// loaded1 applies a page answer.
func (t *Screen) loaded1(msg ui.Result[transactionLoad]) tea.Cmd {
	t.loading = false
	t.staleFrame()
	if msg.Err != nil {
		if msg.ID == t.filterLoadID && filtersRefused(msg.Err) != nil {
			return nil // the filter form shows the refusal (filtered)
		}
		if apiclient.IsNotFound(msg.Err) || apiclient.IsStatus(msg.Err, 403) {
			t.loadErr = msg.Err
			t.setRows(nil)
			t.loaded = true
			return nil
		}
		t.loadErr = msg.Err
		return screenkit.Failed("loading transactions", msg.Err)
	}
	v := msg.Value
	if len(v.page.Transactions) == 0 && v.filter.Page > t.filter.Page && t.loaded && transactionSameQuery(v.filter, t.filter) {
		t.atEnd = true
		return ui.Notify(theme.ToneInfo, fmt.Sprintf("no more transactions after page %d", t.filter.Page+1))
	}
	keepCursor := t.loaded && transactionSameQuery(v.filter, t.filter) && v.filter.Page == t.filter.Page
	t.filter = v.filter
	t.loadErr = nil
	t.loaded = true
	t.atEnd = len(v.page.Transactions) == 0
	t.setRows(v.page.Transactions)
	if !keepCursor {
		t.table.SetCursor(0)
	}
	return nil
}

// transactionSameQuery reports whether two filters differ only in the page.
func transactionSameQuery(a, b apiclient.TransactionFilter) bool {
	return a.DateFrom == b.DateFrom && a.DateTo == b.DateTo && a.SearchKey == b.SearchKey &&
		strings.Join(a.MCCCategories, ",") == strings.Join(b.MCCCategories, ",")
}

// setRows shows transactions in the table, read through an accessor; a
// column whose fields the gateway does not send reads the records' own.
func (t *Screen) setRows(list []apiclient.Transaction) {
	t.rows = list
	raws := make([]apiclient.RawJSON, len(list))
	for i := range list {
		x := &list[i]
		ledger.AdoptTransactionShape(x)
		raws[i] = x.Raw
		// Only printable categories are offered: they become the filter
		// form's suggestions, which the text input draws as they are.
		if x.MCCCategory != "" && len(t.categories) < 200 && sanitize.Text(x.MCCCategory) == x.MCCCategory {
			t.categories[x.MCCCategory] = true
		}
	}
	t.shape = screenkit.NewRecordShape(raws, transactionRecordColumns.Get())
	t.table.SetColumns(transactionColumns(t.Width > 0 && t.Width < transactionNarrowBelow, t.shape))
	cells := newPageCells(list, t.shape)
	t.table.SetSource(len(list), func(row, col int) string {
		if v, ok := cells.cell(row, col); ok {
			return v
		}
		x := &list[row]
		switch col {
		case 1:
			return x.MerchantNameLocation
		case 2:
			return x.MCCCategory
		case 4:
			return x.Status
		}
		return ""
	})
	t.staleFrame()
}

func (t *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	// The quick filter has the keys: f, c, n and p are letters there.
	if cmd, ok := t.table.FilterKey(msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, t.keys.Filters, t.keys.SaveView):
		return t.openFilters(key.Matches(msg, t.keys.SaveView))
	case key.Matches(msg, t.keys.Export):
		return t.openExport()
	case key.Matches(msg, t.keys.Note):
		return t.openNote()
	case key.Matches(msg, t.keys.Tag):
		return t.openTagChoice()
	case key.Matches(msg, t.keys.Clear):
		if t.filter.DateFrom == "" && t.filter.SearchKey == "" && len(t.filter.MCCCategories) == 0 && t.tag == "" {
			return ui.Notify(theme.ToneInfo, "no filters to clear")
		}
		t.tag = ""
		return t.load(apiclient.TransactionFilter{})
	case key.Matches(msg, t.keys.Next):
		if t.loading {
			return nil
		}
		if t.atEnd || len(t.rows) == 0 || t.tag != "" {
			return ui.Notify(theme.ToneInfo, "this is the last page")
		}
		f := t.filter
		f.Page++
		return t.load(f)
	case key.Matches(msg, t.keys.Prev):
		if t.loading {
			return nil
		}
		if t.filter.Page == 0 {
			return ui.Notify(theme.ToneInfo, "already on the first page")
		}
		f := t.filter
		f.Page--
		return t.load(f)
	}
	var cmd tea.Cmd
	t.table, cmd = t.table.Update(msg)
	return cmd
}

// transactionDetailHeight is the rows the detail pane takes.
const transactionDetailHeight = 11
