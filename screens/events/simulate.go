package events

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// The simulate panel (s, sandbox only): card activity made to happen on
// the signed-in user's card (POST /sandbox/simulate), so a partner watches
// the transaction.* events arrive here and on their own webhooks, and the
// record join the Transactions screen.

// simulated is the sandbox's answer to a simulated step.
type simulated struct{ result apiclient.SimulateResult }

// openSimulate asks which step to make happen, with what.
func (s *Screen) openSimulate() tea.Cmd {
	f := form.New(s.Deps.Styles, form.Spec{
		Title:  "Simulate card activity",
		Submit: "simulate",
		Lines: []string{
			"POST /sandbox/simulate: the step joins your transactions and its transaction.* event goes to every webhook subscribed to it",
			"A clearing settles your latest pending authorization; a refund gives back (part of) your latest cleared one.",
		},
		Fields: []form.Field{
			{Key: "type", Label: "Step", Kind: form.FieldChoice, Choices: apiclient.SimulateTypes},
			{Key: "amount", Label: "Amount", Value: "12.50", Placeholder: "12.50 (a clearing or refund: empty for all of it)", CharLimit: 12},
			{Key: "currency", Label: "Currency", Kind: form.FieldChoice, Choices: []string{"EUR", "CHF", "GBP", "USD"}},
			{Key: "merchant", Label: "Merchant", Value: "Coffee Corner", CharLimit: 120},
			{Key: "mcc", Label: "MCC", Value: "5814", Placeholder: "four digits", CharLimit: 4},
			{Key: "reason", Label: "Decline reason", Placeholder: "INSUFFICIENT_FUNDS (a decline or a reversal)", CharLimit: 64},
		},
		Note: "Sandbox only: a real gateway's card activity comes from the card network.",
	})
	return s.openForm(f, s.sendSimulate, s.simulateDone).Open(f.Focus())
}

// sendSimulate asks the sandbox for the step the form names, about the
// signed-in user.
func (s *Screen) sendSimulate(f *form.Form) tea.Cmd {
	client := s.Deps.Client
	in := apiclient.SimulateRequest{Type: f.Value("type"), User: client.Session().Username, Amount: f.Value("amount"),
		Currency: f.Value("currency"), Merchant: f.Value("merchant"), MCC: f.Value("mcc"), Reason: f.Value("reason")}
	switch in.Type {
	case "clearing", "refund", "increment", "reversal", "atm":
		in.Merchant, in.MCC = "", "" // the authorization's, or the ATM's
	}
	if in.Type != "decline" && in.Type != "reversal" {
		in.Reason = ""
	}
	return form.SubmitRequest(f, s.Requests, &s.simulateID, func(ctx context.Context) (simulated, error) {
		res, err := client.SandboxSimulate(ctx, in)
		return simulated{result: res}, err
	})
}

// simulateDone closes the form and says what happened and where its event
// went; a refusal stays on the form with what was typed.
func (s *Screen) simulateDone(f *form.Form, msg tea.Msg) (cmd tea.Cmd, done bool) {
	res, ok := msg.(ui.Result[simulated])
	if !ok || res.ID != s.simulateID {
		return nil, false
	}
	f.SetBusy(false)
	if res.Err != nil {
		return screenkit.FormFailed(f, "simulating card activity", res.Err), false
	}
	r := res.Value.result
	t := r.Transaction
	kind := strings.ToLower(t.TransactionType)
	if kind != "" {
		kind = strings.ToUpper(kind[:1]) + kind[1:]
	}
	text := fmt.Sprintf("%s of %s %s at %s: %s", sanitize.Text(kind), sanitize.Text(t.TransactionAmount), sanitize.Text(t.TransactionCurrency),
		sanitize.Text(t.Merchant), t.Status)
	if t.DeclineReason != nil {
		text += " (" + sanitize.Text(*t.DeclineReason) + ")"
	}
	here := slices.ContainsFunc(r.Deliveries, func(w apiclient.TriggeredWebhook) bool { return w.URL == s.Deps.EventsURL })
	switch {
	case len(r.Deliveries) == 0:
		return ui.Notify(theme.ToneWarn, text+"; no active webhook is subscribed to "+sanitize.Text(r.EventType)), true
	case !here:
		text += fmt.Sprintf("; %s sent to %d %s, none pointing here", sanitize.Text(r.EventType), len(r.Deliveries), screenkit.Plural(len(r.Deliveries), "webhook", "webhooks"))
	default:
		text += "; " + sanitize.Text(r.EventType) + " on its way here"
	}
	return ui.Notify(theme.ToneOK, text), true
}
