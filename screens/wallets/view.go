package wallets

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// overviewParts is the overview around the internal wallets' table,
// built in Update and SetSize (layoutOverview) whenever anything but the
// table's cursor changed: a frame draws the table between them, so moving
// in the list renders nothing else.
type overviewParts struct {
	head string
	// table says the table goes between head and rest; otherwise head
	// ends with what stands in its place (loading, an error).
	table bool
	rest  string
	// addressLabel and valueWrap draw the selected wallet's address line
	// (selectedLine) without a render per key press.
	addressLabel string
	valueWrap    [2]string
}

// overview draws the four sections of the wallets screen.
func (w *Screen) overview() string {
	p := w.parts
	if !p.table {
		return p.head + p.rest
	}
	table := w.table.View()
	selected := w.selectedLine()
	var b strings.Builder
	b.Grow(len(p.head) + len(table) + len(selected) + len(p.rest) + 2)
	b.WriteString(p.head)
	b.WriteString(table)
	b.WriteByte('\n')
	if selected != "" {
		b.WriteString(selected)
		b.WriteByte('\n')
	}
	b.WriteString(p.rest)
	return b.String()
}

// selectedLine is the selected wallet's address whole, which the table
// shortens in the middle on narrow terminals (y copies it).
func (w *Screen) selectedLine() string {
	i, ok := w.table.Cursor()
	if !ok {
		return ""
	}
	address := sanitize.Text(w.addressOf(i))
	if address == "" {
		return ""
	}
	p := w.parts
	return p.addressLabel + p.valueWrap[0] + ui.Shorten(address, max(w.Width-8, 8)) + p.valueWrap[1]
}

// layoutOverview builds the overview's parts for the data, size and theme.
func (w *Screen) layoutOverview() {
	width := w.Width
	st := w.Deps.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Wallets") + "\n\n")
	if err := w.errs[readInternal]; apiclient.IsStatus(err, 403) {
		b.WriteString(st.Text(theme.ToneWarn).Render("The gateway does not allow wallet operations for this account.") + "\n")
		b.WriteString(st.Muted.Width(max(width-2, 20)).Render("Wallets need a VERIFIED identity; see " + w.Deps.ScreenNamed(screenkit.AccountScreen, "Account") + ". Gateway said: " +
			sanitize.Text(apiclient.ErrorMessage(err))))
		w.parts = overviewParts{head: b.String()}
		return
	}

	// Internal wallets and their links.
	head := "Internal wallets"
	switch {
	case w.errs[readLinked] != nil:
		head += " · linked wallets unavailable"
	case w.loaded[readLinked] || len(w.linked) > 0:
		head += fmt.Sprintf(" · %d linked to the card (limit %d)", len(w.linked), apiclient.MaxLinkedWallets)
	}
	w.parts.table = false
	w.parts.addressLabel = st.Muted.Render("address ")
	pre, post := ui.WrapStyle(st.Value)
	w.parts.valueWrap = [2]string{pre, post}
	b.WriteString(st.Subtitle.Render(head))
	if w.change.Running() {
		b.WriteString("  " + st.Muted.Render(w.change.What()+" in progress…"))
	}
	b.WriteString("\n")
	switch {
	case !w.loaded[readInternal] && len(w.internal) == 0:
		b.WriteString(st.Muted.Render("Loading wallets…") + "\n")
	case w.errs[readInternal] != nil && len(w.internal) == 0:
		b.WriteString(st.Text(theme.ToneDanger).Render("Could not load the wallets: "+sanitize.Text(apiclient.ErrorMessage(w.errs[readInternal]))) + "\n")
	default:
		w.parts.table = true
	}
	w.parts.head = b.String()
	b = strings.Builder{}
	if w.reason != "" {
		b.WriteString(st.Text(theme.ToneWarn).Width(max(width-2, 20)).Render(sanitize.Text(w.reason)) + "\n")
	}
	if len(w.linked) > 0 {
		var order []string
		for i, l := range w.linked {
			order = append(order, fmt.Sprintf("#%d %s", i+1, strings.ToUpper(sanitize.Text(l.Currency))))
		}
		b.WriteString(st.Muted.Render("Card charges in this order: "+strings.Join(order, " › ")) + "\n")
	}
	b.WriteString("\n")
	w.writeExternal(&b, width)
	w.writeCredit(&b, width)
	w.parts.rest = b.String()
}

// writeExternal writes the external wallets with their balances.
func (w *Screen) writeExternal(b *strings.Builder, width int) {
	st := w.Deps.Styles
	b.WriteString(st.Subtitle.Render("External wallets") + "\n")
	switch {
	case !w.loaded[readExternal] && len(w.external) == 0:
		b.WriteString(st.Muted.Render("Loading…") + "\n")
	case w.errs[readExternal] != nil:
		b.WriteString(st.Text(theme.ToneDanger).Render("Could not load: "+sanitize.Text(apiclient.ErrorMessage(w.errs[readExternal]))) + "\n")
	case len(w.external) == 0:
		b.WriteString(st.Muted.Width(max(width-2, 20)).Render("None registered. Withdrawals are sent to the external wallet: complete the delegation first on "+w.Deps.ScreenNamed(screenkit.DelegationScreen, "Delegation")+".") + "\n")
	default:
		for _, e := range w.external {
			line := fmt.Sprintf("%-6s %-9s %s", strings.ToUpper(sanitize.Text(e.Currency)), sanitize.Text(e.Network), sanitize.Text(e.Address))
			b.WriteString(st.Value.Render(ansi.Truncate(line, width, "…")) + "\n")
			b.WriteString(st.Label.Render("       balance ") + st.Value.Render(dashIfEmpty(sanitize.Text(e.Balance))) +
				st.Label.Render("  allowance ") + st.Value.Render(dashIfEmpty(sanitize.Text(e.Allowance))) +
				st.Label.Render("  spendable ") + st.Text(theme.ToneOK).Render(dashIfEmpty(sanitize.Text(e.Spendable()))) + "\n")
			// Whatever else the gateway says of the wallet, on one line.
			if len(e.Others) > 0 {
				var parts []string
				for _, f := range e.Others {
					parts = append(parts, sanitize.Text(strings.ToLower(f.Label))+" "+sanitize.Text(f.Value))
				}
				b.WriteString(st.Muted.Render(ansi.Truncate("       "+strings.Join(parts, "  "), width, "…")) + "\n")
			}
		}
	}
	b.WriteString("\n")
}

// writeCredit writes the credit wallet and the last withdrawal's answer.
func (w *Screen) writeCredit(b *strings.Builder, width int) {
	st := w.Deps.Styles
	b.WriteString(st.Subtitle.Render("Credit wallet") + "\n")
	b.WriteString(w.creditSummary(width) + "\n")
	if w.last.result.TxHash != "" {
		arrives := w.last.arrives + " USDC"
		if w.last.arrives == "" {
			arrives = "the amount minus the network fee (the fee could not be read)"
		}
		// The answer as the gateway sent it: txHash, then whatever else it said.
		fields := append([]screenkit.Field{
			{Label: "Amount", Value: w.last.amount + " USDC"},
			{Label: "Arrives", Value: arrives},
			{Label: "Tx hash", Value: w.last.result.TxHash},
		}, screenkit.OtherFields(w.last.result.Raw, []screenkit.KnownField{{Names: []string{"txHash"}}})...)
		b.WriteString("\n" + st.Subtitle.Render("Last withdrawal") + "\n")
		b.WriteString(screenkit.RenderFields(st, fields, width) + "\n")
		b.WriteString(st.Muted.Render(keymap.Key("global.copy")+" copies the transaction hash") + "\n")
	}
}

// dashIfEmpty shows "—" for a value that could not be read.
func dashIfEmpty(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func (w *Screen) creditSummary(width int) string {
	st := w.Deps.Styles
	err := w.errs[readCredit]
	switch {
	case !w.loaded[readCredit] && w.credit == nil:
		return st.Muted.Render("Loading…")
	case apiclient.IsNotFound(err):
		return st.Muted.Render("No credit yet: the credit wallet appears after the first credit.")
	case err != nil && w.credit == nil:
		return st.Text(theme.ToneDanger).Render("Could not load: " + sanitize.Text(apiclient.ErrorMessage(err)))
	}
	cw := w.credit
	state := st.Badge("WITHDRAWABLE", theme.ToneOK)
	if !cw.IsWithdrawable {
		state = st.Badge("NOT WITHDRAWABLE", theme.ToneWarn)
	}
	// The balance and id under the client's names or the gateway's own,
	// then every other field the gateway sent.
	// A field standing in for the balance or the id is not listed twice.
	shape := screenkit.NewRecordShape([]apiclient.RawJSON{cw.Raw}, creditRecordColumns)
	balance := shape.Value(0, 0, string(cw.Balance))
	id := shape.Value(0, 1, cw.ID)
	if id == "" {
		id = w.creditWalletID()
	}
	known := []screenkit.KnownField{
		{Field: screenkit.Field{Label: "Balance", Value: strings.TrimSpace(balance + " " + strings.ToUpper(cw.Currency))}, Names: []string{"balance", "currency", shape.FallbackPath(0)}},
		{Field: screenkit.Field{Label: "State", Styled: state}, Names: []string{"isWithdrawable"}},
		{Field: screenkit.Field{Label: "Wallet id", Value: id}, Names: []string{"id", shape.FallbackPath(1)}},
	}
	fields := append([]screenkit.Field{known[0].Field, known[1].Field, known[2].Field}, screenkit.OtherFields(cw.Raw, known)...)
	hint := "w withdraws to the external wallet"
	if why := w.whyNoWithdraw(); why != "" {
		hint = "No withdrawal: " + strings.TrimPrefix(strings.TrimPrefix(why, "withdraw: "), "nothing to withdraw: ")
	}
	if w.Deps.ReadOnly {
		hint = "read-only: withdrawals are disabled"
	}
	return screenkit.RenderFields(st, fields, width) + "\n" + st.Muted.Render(hint)
}
