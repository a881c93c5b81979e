package wallets

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// historyPage is one page of a wallet's history, tagged with its query so a
// late answer for another page is recognisable.
type historyPage struct {
	query apiclient.HistoryQuery
	items []apiclient.HistoryItem
}

// historyView pages through one wallet's history, 10 items a page.
type historyView struct {
	query   apiclient.HistoryQuery
	title   string
	id      ui.RequestID
	loading bool
	items   []apiclient.HistoryItem
	// shape says which columns read the gateway's own fields.
	shape screenkit.RecordShape
	err   error
	// internal is the query of the internal wallet opened with h, so c can
	// switch to the credit wallet and back.
	internal      apiclient.HistoryQuery
	internalTitle string
}

// historyRecordColumns are the wire names each history column reads, and
// what another gateway's field should be called to stand in for it.
var historyRecordColumns = []screenkit.RecordColumn{
	{Known: []string{"date"}, Hints: []string{"date", "time", "occurred", "created", "posted"}, Kind: screenkit.DateValue},
	{Known: []string{"name"}, Hints: []string{"title", "description", "name", "label", "memo"}},
	{Known: []string{"sign"}, Hints: []string{"direction", "sign", "side", "type"}},
	{Known: []string{"amount"}, Hints: []string{"amount", "value", "total"}, Kind: screenkit.AmountValue},
	{Known: []string{"currency"}, Hints: []string{"currency", "asset"}},
}

func (w *Screen) openHistory(q apiclient.HistoryQuery, title string) tea.Cmd {
	w.hist = historyView{query: q, title: title, internal: q, internalTitle: title}
	w.mode = modeHistory
	return w.loadHistory()
}

func (w *Screen) loadHistory() tea.Cmd {
	h := &w.hist
	h.loading = true
	client := w.Deps.Client
	q := h.query
	return ui.Start(w.Requests, &h.id, func(ctx context.Context) (historyPage, error) {
		items, err := client.WalletHistory(ctx, q)
		return historyPage{query: q, items: items}, err
	})
}

func (w *Screen) updateHistory(msg ui.Result[historyPage]) tea.Cmd {
	h := &w.hist
	if msg.ID != h.id {
		return nil
	}
	h.loading = false
	h.err = msg.Err
	if msg.Err != nil {
		h.items = nil
		return screenkit.Failed("loading the history", msg.Err)
	}
	h.items = msg.Value.items
	raws := make([]apiclient.RawJSON, len(h.items))
	for i, it := range h.items {
		raws[i] = it.Raw
	}
	h.shape = screenkit.NewRecordShape(raws, historyRecordColumns)
	return nil
}

func (w *Screen) historyKey(msg tea.KeyPressMsg) tea.Cmd {
	h := &w.hist
	switch {
	case key.Matches(msg, w.keys.Back):
		w.mode = modeOverview
		return nil
	case key.Matches(msg, w.keys.Next):
		if h.loading {
			return nil // the page is not in yet: it decides whether there is a next
		}
		if len(h.items) < apiclient.HistoryPageSize {
			return ui.Notify(theme.ToneInfo, "this is the last page")
		}
		h.query.Page++
		return w.loadHistory()
	case key.Matches(msg, w.keys.Prev):
		if h.loading || h.query.Page == 0 {
			return nil
		}
		h.query.Page--
		return w.loadHistory()
	case key.Matches(msg, w.keys.Credit):
		if h.query.WalletType == "credit" {
			h.query, h.title = h.internal, h.internalTitle
			return w.loadHistory()
		}
		if w.credit == nil {
			return ui.Notify(theme.ToneInfo, "there is no credit wallet yet")
		}
		h.query = apiclient.HistoryQuery{WalletID: w.creditWalletID(), WalletType: "credit", WalletCurrency: w.credit.Currency}
		h.title = "Credit wallet " + w.creditWalletID()
		return w.loadHistory()
	}
	return nil
}

func (w *Screen) historyView(width, height int) string {
	st := w.Deps.Styles
	h := &w.hist
	var b strings.Builder
	b.WriteString(st.Title.Render("History") + "  " + st.Muted.Render(sanitize.Text(h.title)) + "\n")
	b.WriteString(st.Muted.Render(fmt.Sprintf("page %d · %d per page · %s next · %s previous · %s credit/internal · %s back",
		h.query.Page+1, apiclient.HistoryPageSize, w.keys.Next.Help().Key, w.keys.Prev.Help().Key, w.keys.Credit.Help().Key, w.keys.Back.Help().Key)) + "\n\n")
	switch {
	case h.err != nil:
		b.WriteString(st.Text(theme.ToneDanger).Render("Could not load the history: " + sanitize.Text(apiclient.ErrorMessage(h.err))))
		return b.String()
	case h.loading && len(h.items) == 0:
		b.WriteString(st.Muted.Render("Loading…"))
		return b.String()
	case len(h.items) == 0:
		b.WriteString(st.Muted.Render("No movements on this page."))
		return b.String()
	}
	cols := []table.Column{
		{Title: "Date", Width: 16},
		{Title: "Description", Min: 16},
		{Title: "Sign", Width: 9},
		{Title: "Amount", Width: 14, Right: true},
		{Title: "Cur.", Width: 5},
	}
	for i := range cols {
		cols[i].Title = h.shape.FallbackTitle(i, cols[i].Title)
	}
	// The cells keep every minute; the title names the zone once.
	cols[0].Title = screenkit.ZoneTitle(cols[0].Title)
	t := table.New(st, cols)
	rows := make([][]string, len(h.items))
	for i, it := range h.items {
		amount := string(it.Amount)
		if strings.EqualFold(it.Sign, apiclient.TxDebit) {
			amount = "-" + amount
		} else if strings.EqualFold(it.Sign, apiclient.TxCredit) {
			amount = "+" + amount
		}
		sh := h.shape
		rows[i] = []string{screenkit.FormatTableTime(sh.Value(i, 0, it.Date)), sh.Value(i, 1, it.Name), sh.Value(i, 2, it.Sign),
			sh.Value(i, 3, amount), strings.ToUpper(sh.Value(i, 4, it.Currency))}
	}
	t.SetRows(rows)
	t.SetSize(width, min(len(rows)+2, max(height-4, 3)))
	b.WriteString(t.View())
	return b.String()
}
