package wallets

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"cardterm/screens/screenkit"
)

// walletKeys are the wallets screen's bindings; mutating ones are disabled
// in read-only mode so the footer and help never offer them.
type walletKeys struct {
	Link, Unlink, Up, Down, Withdraw, History key.Binding
	// Receive opens the receive view of the selected wallet (receive.go).
	Receive key.Binding
	// Used inside the history view.
	Next, Prev, Credit, Back key.Binding
	table                    help.KeyMap
	mode                     walletMode
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
		Receive:  key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "receive (address, QR)")),
		Next:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next page")),
		Prev:     key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "previous page")),
		Credit:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "credit/internal wallet")),
		Back:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		table:    table,
	}
	screenkit.DisableInReadOnly(readOnly, &k.Link, &k.Unlink, &k.Up, &k.Down, &k.Withdraw)
	return k
}

// ShortHelp implements help.KeyMap for the mode shown.
func (k walletKeys) ShortHelp() []key.Binding {
	switch k.mode {
	case modeHistory:
		return []key.Binding{k.Next, k.Prev, k.Credit, k.Back}
	}
	return []key.Binding{k.Link, k.Unlink, k.Up, k.Down, k.Withdraw, k.History, k.Receive}
}

// FullHelp implements help.KeyMap.
func (k walletKeys) FullHelp() [][]key.Binding {
	if k.mode != modeOverview {
		return [][]key.Binding{k.ShortHelp()}
	}
	return append([][]key.Binding{k.ShortHelp()}, k.table.FullHelp()...)
}
