package screens

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// walletKeys are the wallets screen's bindings; mutating ones are disabled
// in read-only mode so the footer and help never offer them.
type walletKeys struct {
	Link, Unlink, Up, Down, Withdraw, History key.Binding
	// Used inside the history view and the withdrawal form.
	Next, Prev, Credit, Back, Submit key.Binding
	table                            help.KeyMap
	mode                             walletMode
}

// walletMode is what the wallets screen shows.
type walletMode int

const (
	modeOverview walletMode = iota
	modeWithdraw
	modeHistory
)

func newWalletKeys(readOnly bool, table help.KeyMap) walletKeys {
	k := walletKeys{
		Link:     key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "link to card")),
		Unlink:   key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "unlink")),
		Up:       key.NewBinding(key.WithKeys("K"), key.WithHelp("K", "priority up")),
		Down:     key.NewBinding(key.WithKeys("J"), key.WithHelp("J", "priority down")),
		Withdraw: key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "withdraw credit")),
		History:  key.NewBinding(key.WithKeys("h"), key.WithHelp("h", "history")),
		Next:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next page")),
		Prev:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "previous page")),
		Credit:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "credit/internal wallet")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Submit:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "review withdrawal")),
		table:    table,
	}
	if readOnly {
		for _, b := range []*key.Binding{&k.Link, &k.Unlink, &k.Up, &k.Down, &k.Withdraw} {
			b.SetEnabled(false)
		}
	}
	return k
}

// ShortHelp implements help.KeyMap for the mode shown.
func (k walletKeys) ShortHelp() []key.Binding {
	switch k.mode {
	case modeWithdraw:
		return []key.Binding{k.Submit, k.Back}
	case modeHistory:
		return []key.Binding{k.Next, k.Prev, k.Credit, k.Back}
	}
	return []key.Binding{k.Link, k.Unlink, k.Up, k.Down, k.Withdraw, k.History}
}

// FullHelp implements help.KeyMap.
func (k walletKeys) FullHelp() [][]key.Binding {
	if k.mode != modeOverview {
		return [][]key.Binding{k.ShortHelp()}
	}
	return append([][]key.Binding{k.ShortHelp()}, k.table.FullHelp()...)
}

// walletAction is a link, unlink or reorder that ran; its answer triggers a
// re-read of the server state.
type walletAction struct {
	what string // for notices: "link", "unlink", "priority change"
	done string // success notice
}

// Wallets shows the internal, linked, external and credit wallets, links
// wallets to the card, withdraws credit and pages through history.
type Wallets struct {
	deps Deps
	keys walletKeys

	table  ui.Table
	narrow bool // the table's compact layout

	internalID, linkedID, externalID, creditID ui.RequestID
	internal                                   []apiclient.InternalWallet
	linked                                     []apiclient.LinkedWallet
	external                                   []apiclient.ExternalWallet
	credit                                     *apiclient.CreditWallet
	// loaded marks which of the four reads have answered since the last
	// reload; errs holds their failures (credit 404 is "no credit yet").
	loaded [4]bool
	errs   [4]error

	actionID ui.RequestID
	busy     string // the wallet action in flight; keys wait for it
	// reason explains the last refusal (before sending or by the gateway).
	reason string

	mode     walletMode
	withdraw withdrawForm
	hist     historyView

	// lastTx is the latest withdrawal, shown and copyable with y.
	lastTx, lastTxAmount, lastTxArrives string
}

const (
	readInternal = iota
	readLinked
	readExternal
	readCredit
)

// NewWallets builds the wallets screen.
func NewWallets(deps Deps) *Wallets {
	w := &Wallets{deps: deps}
	w.table = ui.NewTable(deps.Styles, walletColumns(false))
	w.keys = newWalletKeys(deps.ReadOnly, w.table.KeyMap())
	return w
}

// walletNarrowBelow is the body width under which the columns shrink: the
// full table needs 71 cells, and at 80 columns the Card column (which
// wallet is linked) fell off the screen.
const walletNarrowBelow = 71

func walletColumns(narrow bool) []ui.Column {
	if narrow {
		return []ui.Column{
			{Title: "Cur.", Width: 5},
			{Title: "Balance", Width: 12, Right: true},
			{Title: "Address", Min: 12},
			{Title: "Memo", Width: 8},
			{Title: "Card", Width: 9},
		}
	}
	return []ui.Column{
		{Title: "Currency", Width: 8},
		{Title: "Balance", Width: 16, Right: true},
		{Title: "Address", Min: 20},
		{Title: "Memo", Width: 10},
		{Title: "Card", Width: 11},
	}
}

// fitColumns switches the table layout for a body width, never while the
// quick filter is in use.
func (w *Wallets) fitColumns(width int) {
	narrow := width < walletNarrowBelow
	if narrow == w.narrow || w.table.Filtering() || w.table.Filter() != "" {
		return
	}
	w.narrow = narrow
	cur, ok := w.table.Cursor()
	w.table = ui.NewTable(w.deps.Styles, walletColumns(narrow))
	w.keys.table = w.table.KeyMap()
	w.rebuildRows()
	if ok {
		w.table.SetCursor(cur)
	}
}

// ID implements ui.Screen.
func (w *Wallets) ID() ui.ScreenID { return ui.ScreenWallets }

// Title implements ui.Screen.
func (w *Wallets) Title() string { return "Wallets" }

// KeyMap implements ui.Screen: the keys of what is shown.
func (w *Wallets) KeyMap() help.KeyMap {
	k := w.keys
	k.mode = w.mode
	return k
}

// CapturesKeys implements ui.Screen: the amount input and the table filter
// take every key.
func (w *Wallets) CapturesKeys() bool {
	return w.mode == modeWithdraw || (w.mode == modeOverview && w.table.Filtering())
}

// Enter loads everything the screen shows.
func (w *Wallets) Enter() tea.Cmd {
	if w.mode == modeWithdraw {
		return nil // keep the form as typed
	}
	if w.mode == modeHistory {
		return tea.Batch(w.reload(), w.loadHistory())
	}
	return w.reload()
}

// reload starts the four reads at once; each answer is shown as it arrives.
func (w *Wallets) reload() tea.Cmd {
	c, r := w.deps.Client, w.deps.Requests
	w.loaded = [4]bool{}
	var c1, c2, c3, c4 tea.Cmd
	w.internalID, c1 = ui.Go(r, func(ctx context.Context) ([]apiclient.InternalWallet, error) { return c.InternalWallets(ctx) })
	w.linkedID, c2 = ui.Go(r, func(ctx context.Context) ([]apiclient.LinkedWallet, error) { return c.LinkedWallets(ctx) })
	w.externalID, c3 = ui.Go(r, func(ctx context.Context) ([]apiclient.ExternalWallet, error) { return c.ExternalWallets(ctx) })
	w.creditID, c4 = ui.Go(r, func(ctx context.Context) (apiclient.CreditWallet, error) { return c.CreditWallet(ctx) })
	return tea.Batch(c1, c2, c3, c4)
}

// Update implements ui.Screen.
func (w *Wallets) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[[]apiclient.InternalWallet]:
		if msg.ID == w.internalID {
			w.loaded[readInternal], w.errs[readInternal] = true, msg.Err
			if msg.Err == nil {
				w.internal = msg.Value
			}
			w.rebuildRows()
			return w, w.readFailed("loading the internal wallets", msg.Err)
		}
	case ui.Result[[]apiclient.LinkedWallet]:
		if msg.ID == w.linkedID {
			w.loaded[readLinked], w.errs[readLinked] = true, msg.Err
			if msg.Err == nil {
				w.linked = msg.Value
			}
			w.rebuildRows()
			return w, w.readFailed("loading the linked wallets", msg.Err)
		}
	case ui.Result[[]apiclient.ExternalWallet]:
		if msg.ID == w.externalID {
			w.loaded[readExternal], w.errs[readExternal] = true, msg.Err
			if msg.Err == nil {
				w.external = msg.Value
			}
			return w, w.readFailed("loading the external wallets", msg.Err)
		}
	case ui.Result[apiclient.CreditWallet]:
		if msg.ID == w.creditID {
			w.loaded[readCredit], w.errs[readCredit] = true, msg.Err
			switch {
			case msg.Err == nil:
				w.credit = &msg.Value
			case apiclient.IsNotFound(msg.Err):
				w.credit = nil // no credit yet: a state, not a failure
				return w, nil
			}
			return w, w.readFailed("loading the credit wallet", msg.Err)
		}
	case ui.Result[walletAction]:
		if msg.ID != w.actionID {
			return w, nil
		}
		w.busy = ""
		reload := w.reload()
		if msg.Err != nil {
			w.reason = "The gateway refused the " + msg.Value.what + ": " + apiclient.ErrorMessage(msg.Err)
			return w, tea.Batch(failed(msg.Value.what, msg.Err), reload)
		}
		w.reason = ""
		return w, tea.Batch(ui.Notify(theme.ToneOK, msg.Value.done), reload)
	case ui.Result[apiclient.WithdrawEstimation], ui.Result[apiclient.WithdrawResult], withdrawConfirmMsg, withdrawCancelMsg:
		return w, w.updateWithdraw(msg)
	case ui.Result[historyPage]:
		return w, w.updateHistory(msg)
	case ui.RefreshMsg:
		if w.mode == modeHistory {
			return w, tea.Batch(w.reload(), w.loadHistory())
		}
		return w, w.reload()
	case ui.SignedOutMsg, ui.SessionExpiredMsg:
		*w = *NewWallets(w.deps)
	case tea.KeyPressMsg:
		switch w.mode {
		case modeWithdraw:
			return w, w.withdrawKey(msg)
		case modeHistory:
			return w, w.historyKey(msg)
		}
		return w, w.handleKey(msg)
	}
	return w, nil
}

// readFailed reports a failed read; a 403 (unverified) is shown on the
// screen instead.
func (w *Wallets) readFailed(what string, err error) tea.Cmd {
	if err == nil || apiclient.IsStatus(err, 403) {
		return nil
	}
	return failed(what, err)
}

// linkedIndex is the priority position (0 first) of an internal wallet, or
// -1 when it is not linked.
func (w *Wallets) linkedIndex(iw apiclient.InternalWallet) int {
	return slices.IndexFunc(w.linked, func(l apiclient.LinkedWallet) bool {
		return (l.ID != "" && (l.ID == iw.ID || l.ID == iw.AddressID)) || (l.Address != "" && l.Address == iw.Address && l.Currency == iw.Currency)
	})
}

// addressIDOf is what link and unlink take for a linked wallet.
func (w *Wallets) addressIDOf(l apiclient.LinkedWallet) string {
	for _, iw := range w.internal {
		if (l.ID != "" && (l.ID == iw.ID || l.ID == iw.AddressID)) || (l.Address == iw.Address && l.Currency == iw.Currency) {
			if iw.AddressID != "" {
				return iw.AddressID
			}
			return iw.ID
		}
	}
	return l.ID
}

func (w *Wallets) rebuildRows() {
	rows := make([][]string, len(w.internal))
	for i, iw := range w.internal {
		card := "—"
		if p := w.linkedIndex(iw); p >= 0 {
			card = fmt.Sprintf("linked #%d", p+1)
		}
		rows[i] = []string{strings.ToUpper(iw.Currency), string(iw.Balance), iw.Address, orDash(iw.AddressMemo), card}
	}
	cur, ok := w.table.Cursor()
	w.table.SetRows(rows)
	if ok {
		w.table.SetCursor(cur)
	}
}

// selected is the internal wallet under the cursor.
func (w *Wallets) selected() (apiclient.InternalWallet, bool) {
	i, ok := w.table.Cursor()
	if !ok || i >= len(w.internal) {
		return apiclient.InternalWallet{}, false
	}
	return w.internal[i], true
}

func (w *Wallets) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if w.table.Filtering() {
		var cmd tea.Cmd
		w.table, cmd = w.table.Update(msg)
		return cmd
	}
	if w.deps.ReadOnly {
		switch msg.String() {
		case "l", "u", "K", "J":
			return refuseReadOnly("changing the card's wallets")
		case "w":
			return refuseReadOnly("withdrawing")
		}
	}
	switch {
	case key.Matches(msg, w.keys.Link):
		return w.link()
	case key.Matches(msg, w.keys.Unlink):
		return w.unlink()
	case key.Matches(msg, w.keys.Up):
		return w.move(-1)
	case key.Matches(msg, w.keys.Down):
		return w.move(+1)
	case key.Matches(msg, w.keys.Withdraw):
		return w.openWithdraw()
	case key.Matches(msg, w.keys.History):
		iw, ok := w.selected()
		if !ok {
			return ui.Notify(theme.ToneInfo, "select a wallet first")
		}
		return w.openHistory(apiclient.HistoryQuery{WalletID: firstNonEmpty(iw.AddressID, iw.ID), WalletType: "internal", WalletCurrency: iw.Currency},
			strings.ToUpper(iw.Currency)+" wallet "+iw.Address)
	}
	var cmd tea.Cmd
	w.table, cmd = w.table.Update(msg)
	return cmd
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// CopyValue implements ui.Copier: the latest withdrawal's transaction hash,
// else the selected wallet's address.
func (w *Wallets) CopyValue() (label, value string, ok bool) {
	if w.lastTx != "" && w.mode != modeHistory {
		return "transaction hash", w.lastTx, true
	}
	if iw, ok := w.selected(); ok && iw.Address != "" {
		return strings.ToUpper(iw.Currency) + " wallet address", iw.Address, true
	}
	return "", "", false
}

// View implements ui.Screen.
func (w *Wallets) View(width, height int) string {
	switch w.mode {
	case modeWithdraw:
		return place(w.withdrawView(width), width, height)
	case modeHistory:
		return place(w.historyView(width, height), width, height)
	}
	return place(w.overview(width, height), width, height)
}
