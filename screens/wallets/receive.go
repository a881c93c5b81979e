package wallets

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/domain/ledger"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// The receive view (R): money in to an internal wallet. Its address as a
// QR code, its network and currency, the memo or tag the network needs
// to credit this wallet (an XRP destination tag, a Stellar memo), and
// the warning to send only that currency on that network. c copies the
// address, t the tag; esc goes back. A layer over the Wallets screen.

// memoName is the network's name for the note that routes a payment to
// one account of a shared address, by currency; "" when it has none.
// (Switches, here and in nativeNetwork: a package map is built before
// main on every start.)
func memoName(currency string) string {
	switch currency {
	case "xrp":
		return "destination tag"
	case "xlm", "atom", "eos", "hbar", "bnb":
		return "memo"
	case "ton":
		return "comment"
	}
	return ""
}

// nativeNetwork is the network of a currency that lives on one chain; ""
// for a token (usdc, usdt), which lives on several, so only the gateway
// can say.
func nativeNetwork(currency string) string {
	switch currency {
	case "btc":
		return "bitcoin"
	case "eth":
		return "ethereum"
	case "xrp":
		return "xrpl"
	case "xlm":
		return "stellar"
	case "sol":
		return "solana"
	case "matic":
		return "polygon"
	case "atom":
		return "cosmos"
	case "eos":
		return "eos"
	case "hbar":
		return "hedera"
	case "ton":
		return "ton"
	}
	return ""
}

// receiveLayer is the open receive view.
type receiveLayer struct {
	st                *theme.Styles
	keys              receiveKeys
	currency, address string
	network, memo     string
	memoName          string
	width, height     int
	closed            bool
}

type receiveKeys struct{ CopyAddress, CopyMemo, Back key.Binding }

func (k receiveKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.CopyAddress, k.CopyMemo, k.Back}
}
func (k receiveKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// openReceive opens the view on the selected internal wallet.
func (w *Screen) openReceive() tea.Cmd {
	iw, ok := w.selected()
	if !ok {
		return ui.Notify(theme.ToneInfo, "select a wallet first")
	}
	i, _ := w.table.Cursor()
	address := w.addressOf(i)
	if address == "" {
		return ui.Notify(theme.ToneWarn, "the gateway gave this wallet no address")
	}
	currency := strings.ToLower(iw.Currency)
	l := &receiveLayer{st: w.Deps.Styles, currency: strings.ToUpper(currency), address: address,
		network: w.networkOf(iw), memo: screenkit.OrDash(iw.AddressMemo), memoName: memoName(currency)}
	l.keys = receiveKeys{
		CopyAddress: keymap.Bind("receive.copy-address"),
		CopyMemo:    keymap.Bind("receive.copy-memo"),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}
	l.keys.CopyMemo.SetHelp(l.keys.CopyMemo.Help().Key, "copy the "+cmpOr(l.memoName, "memo"))
	l.keys.CopyMemo.SetEnabled(l.memo != "")
	return ui.OpenLayer(l)
}

// networkOf is the wallet's network: as the wallet record or its linked
// entry names it, else the one chain its currency lives on, else "".
func (w *Screen) networkOf(iw apiclient.InternalWallet) string {
	if v := ledger.FieldAt(iw.Raw.Fields(), "network", "chain", "blockchain"); v != "" {
		return v
	}
	for _, l := range w.linked {
		if l.Network != "" && (l.ID == iw.ID || l.Address == iw.Address) {
			return l.Network
		}
	}
	return nativeNetwork(strings.ToLower(iw.Currency))
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Update implements layer.Layer.
func (l *receiveLayer) Update(msg tea.Msg) tea.Cmd {
	press, ok := msg.(tea.KeyPressMsg)
	switch {
	case !ok:
	case key.Matches(press, l.keys.Back):
		l.closed = true
	case key.Matches(press, l.keys.CopyAddress):
		return tea.Batch(tea.SetClipboard(l.address), ui.Notify(theme.ToneOK, "copied the "+l.currency+" address"))
	case key.Matches(press, l.keys.CopyMemo):
		return tea.Batch(tea.SetClipboard(l.memo), ui.Notify(theme.ToneOK, "copied the "+l.memoName))
	}
	return nil
}

// SetSize implements layer.Layer.
func (l *receiveLayer) SetSize(width, height int) { l.width, l.height = width, height }

// KeyMap implements layer.Layer.
func (l *receiveLayer) KeyMap() help.KeyMap { return l.keys }

// Done implements layer.Layer.
func (l *receiveLayer) Done() bool { return l.closed }

// View implements layer.Layer: the code beside what to send, or above it
// when the body is too narrow for both.
func (l *receiveLayer) View() string {
	code := screenkit.QRBlock(l.address, l.st)
	title := l.st.Title.Render("Receive " + sanitize.Text(l.currency))
	textWidth := l.width - lipgloss.Width(code) - 2
	if textWidth >= 30 {
		return screenkit.Place(title+"\n"+lipgloss.JoinHorizontal(lipgloss.Top, code, "  ", l.details(textWidth)), l.width, l.height)
	}
	return screenkit.Place(title+"\n"+code+"\n"+l.details(l.width), l.width, l.height)
}

// details are the address whole, the network, the memo or tag, and the
// warning.
func (l *receiveLayer) details(width int) string {
	st := l.st
	network := sanitize.Text(l.network)
	if network == "" {
		network = "not given by the gateway: ask before you send"
	}
	lines := []string{
		st.Subtitle.Render("Address"), wrapLine(sanitize.Text(l.address), width),
		"", st.Subtitle.Render("Network") + "  " + network,
		st.Subtitle.Render("Currency") + " " + sanitize.Text(l.currency),
	}
	switch {
	case l.memo != "":
		lines = append(lines, "", st.Subtitle.Render(capitalize(l.memoName))+"  "+st.Accent.Bold(true).Render(sanitize.Text(l.memo)),
			wrapLine(st.Text(theme.ToneWarn).Render("Include this "+l.memoName+": without it the payment does not reach this wallet."), width))
	case l.memoName != "":
		lines = append(lines, "", wrapLine(st.Text(theme.ToneDanger).Render("The gateway gave no "+l.memoName+" for this wallet, and this network needs one: do not send until it does."), width))
	}
	warning := "Send only " + sanitize.Text(l.currency)
	if l.network != "" {
		warning += " on " + network
	}
	warning += " to this address: anything else is lost."
	lines = append(lines, "", wrapLine(st.Text(theme.ToneWarn).Render(warning), width))
	return strings.Join(lines, "\n")
}

func wrapLine(s string, width int) string { return ansi.Wrap(s, max(width, 10), "") }

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
