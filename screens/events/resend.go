package events

import (
	"context"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// resent is the sandbox's answer to a resend.
type resent struct{ event apiclient.ResentEvent }

// askResend confirms delivering the selected delivery's event again: the
// sandbox sends the same event id and body, freshly signed, to every
// webhook it went to, and the new delivery arrives here like the first.
func (s *Screen) askResend() tea.Cmd {
	d, ok := s.selected()
	if !ok {
		return ui.Notify(theme.ToneInfo, "no delivery selected")
	}
	if d.EventID == "" {
		return ui.Notify(theme.ToneInfo, "this delivery names no event id: there is nothing to resend")
	}
	id, client := d.EventID, s.Deps.Client
	name := sanitize.Text(orUnknown(d.EventType))
	return s.resend.Ask(ui.ChangeSpec[resent]{
		Title:   "Deliver " + name + " again?",
		Request: apiclient.SandboxResendCall(id, "").Lines(),
		Lines: []string{"The sandbox delivers event " + sanitize.Text(id) + " again, the same id and body with a fresh signature, " +
			"to every webhook it was delivered to."},
		ConfirmLabel: "Resend",
		What:         "resending " + name,
		Run: func(ctx context.Context) (resent, error) {
			ev, err := client.SandboxResend(ctx, id, "")
			return resent{event: ev}, err
		},
	})
}

// resendDone says where the event went again.
func (s *Screen) resendDone(res ui.ChangeResult[resent]) tea.Cmd {
	if res.Err != nil {
		return screenkit.Failed(res.Spec.What, res.Err)
	}
	ev := res.Value.event
	name := sanitize.Text(orUnknown(ev.EventType))
	if len(ev.Deliveries) == 0 {
		return ui.Notify(theme.ToneWarn, fmt.Sprintf("%s went to no webhook that is still active: nothing was sent", name))
	}
	return ui.Notify(theme.ToneOK, fmt.Sprintf("%s sent again to %d %s", name, len(ev.Deliveries),
		screenkit.Plural(len(ev.Deliveries), "webhook", "webhooks")))
}
