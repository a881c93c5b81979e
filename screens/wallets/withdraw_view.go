package wallets

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// What the withdrawal shows: the form in the screen's body with the
// balance, the fee and the target, and the confirmation of the exact
// request with what arrives.

// ask opens the confirmation of a checked amount: the request, the
// fee and what arrives, or the estimation as sent when its fee is unreadable.
func (l *withdrawLayer) ask(amount string) tea.Cmd {
	w := l.w
	lines := []string{"Amount:       " + amount + " USDC"}
	fee, feeKnown := l.feeFor(amount)
	arrives := ""
	if feeKnown {
		arrives, _ = apiclient.SubDecimal(amount, fee)
		feeLine := "Network fee:  " + fee + " USDC"
		if l.est.ETH != "" {
			feeLine += " (" + string(l.est.ETH) + " ETH)"
		}
		lines = append(lines, feeLine, "Will arrive:  "+arrives+" USDC")
	} else {
		lines = append(lines, "The network fee could not be read from the gateway's estimation, which said:")
		for _, fl := range l.estimationFields() {
			lines = append(lines, "  "+fl.Label+": "+fl.Value)
		}
		lines = append(lines, "Will arrive:  the amount minus the network fee")
	}
	if address, network, ok := w.externalTarget(); ok {
		lines = append(lines, "To:           "+address+" ("+network+")")
	} else {
		lines = append(lines, "To:           the registered external wallet")
	}
	if after, err := apiclient.SubDecimal(w.creditBalance(), amount); err == nil {
		lines = append(lines, "Credit balance after: "+after+" USDC")
	}
	client := w.Deps.Client
	return w.withdrawChange.Ask(ui.ChangeSpec[withdrawal]{
		Title:        "Withdraw " + amount + " USDC?",
		Request:      apiclient.WithdrawCall(amount).Lines(),
		Lines:        lines,
		ConfirmLabel: "withdraw",
		Tone:         theme.ToneWarn,
		What:         "withdrawal",
		Run: func(ctx context.Context) (withdrawal, error) {
			res, err := client.Withdraw(ctx, amount)
			return withdrawal{amount: amount, arrives: arrives, result: res}, err
		},
	})
}

// draw draws the body: the form with the balance, the fee and the target.
func (l *withdrawLayer) draw(f *form.Form) string {
	return screenkit.Place(l.view(f, l.w.Width), l.w.Width, l.w.Height)
}

// view is the form with the balance, the fee and the target above it.
func (l *withdrawLayer) view(f *form.Form, width int) string {
	w := l.w
	st := w.Deps.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Withdraw from the credit wallet") + "\n\n")
	fields := []screenkit.Field{}
	if w.credit != nil {
		fields = append(fields, screenkit.Field{Label: "Balance", Value: dashIfEmpty(w.creditBalance()) + " USDC"})
	}
	amount := f.Value("amount")
	fee, feeKnown := l.fee()
	switch {
	case feeKnown && l.estFor != "" && !l.estimateMatches(amount):
		fields = append(fields, screenkit.Field{Label: "Network fee", Styled: st.Muted.Render("estimating for " + sanitize.Text(amount) + " USDC…")})
		feeKnown = false
	case feeKnown:
		v := fee + " USDC"
		// The gas in ETH helps; the same in wei is the wire's unit, for
		// the inspector (i), not for reading.
		if l.est.ETH != "" {
			v += " (" + string(l.est.ETH) + " ETH of gas)"
		}
		fields = append(fields, screenkit.Field{Label: "Network fee", Value: v})
	case l.est != nil:
		fields = append(fields, screenkit.Field{Label: "Network fee", Styled: st.Text(theme.ToneWarn).Render("could not be read; the gateway's estimation:")})
		for _, fl := range l.estimationFields() {
			fields = append(fields, screenkit.Field{Label: "  " + fl.Label, Value: fl.Value})
		}
	case l.estErr != nil:
		fields = append(fields, screenkit.Field{Label: "Network fee", Styled: st.Text(theme.ToneDanger).Render("unknown: " + sanitize.Text(apiclient.ErrorMessage(l.estErr)))})
	default:
		fields = append(fields, screenkit.Field{Label: "Network fee", Styled: st.Muted.Render("estimating…")})
	}
	if address, network, ok := w.externalTarget(); ok {
		fields = append(fields, screenkit.Field{Label: "To", Value: address + " (" + network + ")"})
	}
	b.WriteString(screenkit.RenderFields(st, fields, width) + "\n\n")
	b.WriteString(f.View() + "\n")
	if l.showsArrival(f, amount, feeKnown) {
		if arrives, err := apiclient.SubDecimal(amount, fee); err == nil && !strings.HasPrefix(arrives, "-") {
			b.WriteString(st.Muted.Render("will arrive: "+arrives+" USDC (amount minus the network fee)") + "\n")
		}
	}
	if w.withdrawChange.Running() {
		b.WriteString(st.Muted.Render("Sending the withdrawal…") + "\n")
	}
	return b.String()
}

// showsArrival says whether what arrives of amount goes under the form:
// only for an amount that may be sent, with its fee known, and never under
// a refusal (the client's check or the gateway's).
func (l *withdrawLayer) showsArrival(f *form.Form, amount string, feeKnown bool) bool {
	return amount != "" && feeKnown && l.estimateMatches(amount) && !f.ShowsError() && l.checkAmount(amount) == ""
}
