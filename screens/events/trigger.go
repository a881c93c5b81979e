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

// triggered is the sandbox's answer to a test event.
type triggered struct{ event apiclient.TriggeredEvent }

// openTestEvent asks which event type to send. The form stays open, what
// was typed kept, until the sandbox answers.
func (s *Screen) openTestEvent() tea.Cmd {
	f := form.New(s.Deps.Styles, form.Spec{
		Title:  "Send a test event",
		Submit: "send",
		Lines: []string{
			`POST /sandbox/trigger {"event_type": …}: a signed delivery to every active webhook subscribed to it`,
			"Types the sandbox emits: " + strings.Join(apiclient.SandboxEmittedEventTypes, ", "),
		},
		Fields: []form.Field{{
			Key: "event_type", Label: "Event type", Value: "card.frozen", Placeholder: "e.g. card.frozen", CharLimit: 128,
			Check: func(v string) string {
				if err := apiclient.ValidateWebhookEventType(v); err != nil {
					return err.Error()
				}
				return ""
			},
		}},
		Note: "Any dotted lower-case name is sent; the body carries \"test\": true.",
	})
	// The event type comes filled: no field is chosen, so enter sends it
	// and the next printable key cannot land in it (tab chooses it).
	return s.openForm(f, s.sendTestEvent, s.triggerDone).Open(f.FocusNothing())
}

// openForm is the form as a layer over the screen, under its heading:
// submit sends its request, answered takes the answer.
func (s *Screen) openForm(f *form.Form, submit func(*form.Form) tea.Cmd, answered func(*form.Form, tea.Msg) (tea.Cmd, bool)) *screenkit.FormLayer {
	return &screenkit.FormLayer{Form: f, Requests: s.Requests, Answer: answered,
		Submit: func(f *form.Form) (tea.Cmd, bool) { return submit(f), false },
		Width:  func(width int) int { return min(width-2, 70) },
		Draw: func(f *form.Form) string {
			return screenkit.Place(s.heading()+"\n\n"+f.View(), s.Width, s.Height)
		},
	}
}

// sendTestEvent asks the gateway for the test event the form names.
func (s *Screen) sendTestEvent(f *form.Form) tea.Cmd {
	eventType, client := f.Value("event_type"), s.Deps.Client
	return form.SubmitRequest(f, s.Requests, &s.triggerID, func(ctx context.Context) (triggered, error) {
		ev, err := client.SandboxTrigger(ctx, eventType, "")
		return triggered{event: ev}, err
	})
}

// triggerDone closes the form and says where the event went; a refusal
// stays on the form with the type kept.
func (s *Screen) triggerDone(f *form.Form, msg tea.Msg) (cmd tea.Cmd, done bool) {
	res, ok := msg.(ui.Result[triggered])
	if !ok || res.ID != s.triggerID {
		return nil, false
	}
	f.SetBusy(false)
	if res.Err != nil {
		return screenkit.FormFailed(f, "sending the test event", res.Err), false
	}
	ev := res.Value.event
	name := sanitize.Text(ev.EventType)
	if len(ev.Deliveries) == 0 {
		return ui.Notify(theme.ToneWarn, fmt.Sprintf("no active webhook is subscribed to %s: nothing was sent", name)), true
	}
	here := slices.ContainsFunc(ev.Deliveries, func(w apiclient.TriggeredWebhook) bool { return w.URL == s.Deps.EventsURL })
	text := fmt.Sprintf("test %s sent to %d %s", name, len(ev.Deliveries), screenkit.Plural(len(ev.Deliveries), "webhook", "webhooks"))
	if !here {
		text += "; none points at this listener (Webhooks screen, l)"
	}
	return ui.Notify(theme.ToneOK, text), true
}
