package wallets

import (
	"cardterm/ui/keymap"

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
	modeHistory
)

func newWalletKeys(readOnly bool, table help.KeyMap) walletKeys {
	k := walletKeys{
		Link:     keymap.Bind("wallets.link"),
		Unlink:   keymap.Bind("wallets.unlink"),
		Up:       keymap.Bind("wallets.up"),
		Down:     keymap.Bind("wallets.down"),
		Withdraw: keymap.Bind("wallets.withdraw"),
		History:  keymap.Bind("wallets.history"),
		Receive:  keymap.Bind("wallets.receive"),
		Next:     keymap.Bind("wallets.next"),
		Prev:     keymap.Bind("wallets.prev"),
		Credit:   keymap.Bind("wallets.credit"),
		Back:     keymap.Bind("wallets.back"),
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
