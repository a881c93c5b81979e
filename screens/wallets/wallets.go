// Package wallets is the Wallets screen: internal wallets and their links
// to the card (5 at most, in priority order), external wallets, the credit
// wallet with its withdrawal, and each wallet's history.
package wallets

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/table"
)

// walletAction is a link, unlink or reorder that ran; its answer triggers a
// re-read of the server state.
type walletAction struct {
	what string // for notices: "link", "unlink", "priority change"
	done string // success notice
}

// Wallets shows the internal, linked, external and credit wallets, links
// wallets to the card, withdraws credit and pages through history.
type Screen struct {
	screenkit.Base
	keys walletKeys
	// why is the reason, per key, that a disabled action cannot work now.
	why screenkit.DisabledReasons

	table table.Table
	// parts is the overview around the table (layoutOverview); movedOnly
	// says the key being handled only moved in the table.
	parts     overviewParts
	movedOnly bool
	// internalShape says which internal wallet columns read the gateway's
	// own fields.
	internalShape screenkit.RecordShape

	internalID, linkedID, externalID, creditID ui.RequestID
	internal                                   []apiclient.InternalWallet
	linked                                     []apiclient.LinkedWallet
	external                                   []screenkit.ExternalWallet // read as drawn when they arrive
	credit                                     *apiclient.CreditWallet
	// loaded marks which of the four reads have answered since the last
	// reload; errs holds their failures (credit 404 is "no credit yet").
	loaded [4]bool
	errs   [4]error

	// change is a link, an unlink or a priority change: confirmed with
	// the requests it sends, run, then every list is read again.
	change ui.Change[walletAction]
	// reason explains the last refusal (before sending or by the gateway).
	reason string

	mode walletMode
	// withdrawChange confirms, sends and reports a withdrawal asked for
	// on its form (withdrawLayer).
	withdrawChange ui.Change[withdrawal]
	hist           historyView

	// last is the latest withdrawal, shown and its hash copyable with y.
	last withdrawal
}

const (
	readInternal = iota
	readLinked
	readExternal
	readCredit
)

// New builds the wallets screen.
func New(deps screenkit.Deps) *Screen {
	w := &Screen{Base: screenkit.NewBase(deps, screenkit.WalletsScreen, "Wallets")}
	w.change, w.withdrawChange = ui.NewChange[walletAction](w.Requests), ui.NewChange[withdrawal](w.Requests)
	w.table = table.New(deps.Styles, walletColumns(false))
	w.offerOnly()
	return w
}

// walletNarrowBelow is the body width under which the columns shrink: the
// full table needs 71 cells, and at 80 columns the Card column (which
// wallet is linked) fell off the screen.
const walletNarrowBelow = 71

func walletColumns(narrow bool) []table.Column {
	if narrow {
		return []table.Column{
			{Title: "Cur.", Width: 5},
			{Title: "Balance", Width: 12, Right: true},
			{Title: "Address", Min: 12},
			{Title: "Memo", Width: 8},
			{Title: "Card", Width: 9},
		}
	}
	return []table.Column{
		{Title: "Currency", Width: 8},
		{Title: "Balance", Width: 16, Right: true},
		{Title: "Address", Min: 20},
		{Title: "Memo", Width: 10},
		{Title: "Card", Width: 11},
	}
}

// SetSize implements ui.Screen: the compact columns on narrow terminals,
// rows, cursor and quick filter kept.
func (w *Screen) SetSize(width, height int) {
	w.Width, w.Height = width, height
	w.table.SetColumns(w.columns())
	w.table.SetSize(width, min(len(w.internal), 8)+2)
	w.layoutOverview()
}

// KeyMap implements ui.Screen: the keys of what is shown.
func (w *Screen) KeyMap() help.KeyMap {
	k := w.keys
	k.mode = w.mode
	return k
}

// CapturesKeys implements ui.Screen: the table filter takes every key.
func (w *Screen) CapturesKeys() bool {
	return w.mode == modeOverview && w.table.Filtering()
}

// Enter loads everything the screen shows.
func (w *Screen) Enter() tea.Cmd {
	if w.mode == modeHistory {
		return tea.Batch(w.reload(), w.loadHistory())
	}
	return w.reload()
}

// reload starts the four reads at once; each answer is shown as it arrives.
func (w *Screen) reload() tea.Cmd {
	c, r := w.Deps.Client, w.Requests
	w.loaded = [4]bool{}
	var c1, c2, c3, c4 tea.Cmd
	w.internalID, c1 = ui.Go(r, func(ctx context.Context) ([]apiclient.InternalWallet, error) { return c.InternalWallets(ctx) })
	w.linkedID, c2 = ui.Go(r, func(ctx context.Context) ([]apiclient.LinkedWallet, error) { return c.LinkedWallets(ctx) })
	w.externalID, c3 = ui.Go(r, func(ctx context.Context) ([]apiclient.ExternalWallet, error) { return c.ExternalWallets(ctx) })
	w.creditID, c4 = ui.Go(r, func(ctx context.Context) (apiclient.CreditWallet, error) { return c.CreditWallet(ctx) })
	return tea.Batch(c1, c2, c3, c4)
}

// Update implements ui.Screen.
// The overview is built again after every message but a key that only
// moved in the table.
func (w *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	w.movedOnly = false
	_, cmd := w.update(msg)
	if !w.movedOnly {
		w.layoutOverview()
	}
	return w, cmd
}

func (w *Screen) update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if res, done, cmd := w.change.Update(msg); done {
		reload := w.reload()
		if res.Err != nil {
			w.reason = "The gateway refused the " + res.Spec.What + ": " + apiclient.ErrorMessage(res.Err)
		} else {
			w.reason = ""
		}
		return w, tea.Batch(screenkit.Report(res), reload)
	} else if cmd != nil {
		return w, cmd
	}
	if res, done, cmd := w.withdrawChange.Update(msg); done {
		return w, w.withdrawn(res)
	} else if cmd != nil {
		return w, cmd
	}
	if cmd, ok := w.gotWallets(msg); ok {
		return w, cmd
	}
	switch msg := msg.(type) {
	case ui.Result[historyPage]:
		return w, w.updateHistory(msg)
	case ui.RefreshMsg:
		if w.mode == modeHistory {
			return w, tea.Batch(w.reload(), w.loadHistory())
		}
		return w, w.reload()
	case ui.BodyMouseMsg:
		return w, w.mouse(msg)
	case tea.KeyPressMsg:
		if w.mode == modeHistory {
			return w, w.historyKey(msg)
		}
		return w, w.handleKey(msg)
	}
	return w, nil
}

// selected is the internal wallet under the cursor.
func (w *Screen) selected() (apiclient.InternalWallet, bool) {
	return screenkit.Selected(&w.table, w.internal)
}

func (w *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := w.table.FilterKey(msg); ok {
		return cmd
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
	case key.Matches(msg, w.keys.Receive):
		return w.openReceive()
	case key.Matches(msg, w.keys.History):
		iw, ok := w.selected()
		if !ok {
			return ui.Notify(theme.ToneInfo, "select a wallet first")
		}
		i, _ := w.table.Cursor()
		return w.openHistory(apiclient.HistoryQuery{WalletID: firstNonEmpty(iw.AddressID, iw.ID), WalletType: "internal", WalletCurrency: iw.Currency},
			strings.ToUpper(iw.Currency)+" wallet "+w.addressOf(i))
	}
	var cmd tea.Cmd
	w.table, cmd = w.table.Update(msg)
	w.movedOnly = true
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
func (w *Screen) CopyValue() (label, value string, ok bool) {
	if tx := w.last.result.TxHash; tx != "" && w.mode != modeHistory {
		return "transaction hash", tx, true
	}
	if iw, ok := w.selected(); ok {
		i, _ := w.table.Cursor()
		if address := w.addressOf(i); address != "" {
			return strings.ToUpper(iw.Currency) + " wallet address", address, true
		}
	}
	return "", "", false
}

// View implements ui.Screen.
func (w *Screen) View() string {
	width, height := w.Width, w.Height
	if w.mode == modeHistory {
		return screenkit.Place(w.historyView(width, height), width, height)
	}
	return screenkit.Place(w.overview(), width, height)
}

// gotWallets takes the answers of the four wallet reads; ok is false for
// any other message.
func (w *Screen) gotWallets(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case ui.Result[[]apiclient.InternalWallet]:
		if msg.ID == w.internalID {
			w.loaded[readInternal], w.errs[readInternal] = true, msg.Err
			defer w.offerOnly()
			if msg.Err == nil {
				w.internal = msg.Value
			}
			w.rebuildRows()
			return screenkit.ReadFailed("loading the internal wallets", msg.Err, 403), true
		}
	case ui.Result[[]apiclient.LinkedWallet]:
		if msg.ID == w.linkedID {
			w.loaded[readLinked], w.errs[readLinked] = true, msg.Err
			defer w.offerOnly()
			if msg.Err == nil {
				w.linked = msg.Value
			}
			w.rebuildRows()
			return screenkit.ReadFailed("loading the linked wallets", msg.Err, 403), true
		}
	case ui.Result[[]apiclient.ExternalWallet]:
		if msg.ID == w.externalID {
			w.loaded[readExternal], w.errs[readExternal] = true, msg.Err
			defer w.offerOnly()
			if msg.Err == nil {
				w.external = screenkit.ExternalWallets(msg.Value)
			}
			return screenkit.ReadFailed("loading the external wallets", msg.Err, 403), true
		}
	case ui.Result[apiclient.CreditWallet]:
		if msg.ID == w.creditID {
			w.loaded[readCredit], w.errs[readCredit] = true, msg.Err
			defer w.offerOnly()
			switch {
			case msg.Err == nil:
				w.credit = &msg.Value
			case apiclient.IsNotFound(msg.Err):
				w.credit = nil // no credit yet: a state, not a failure
				return nil, true
			}
			return screenkit.ReadFailed("loading the credit wallet", msg.Err, 403), true
		}
	}
	return nil, false
}
