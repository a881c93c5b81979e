package events

import (
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// The hint an empty list shows says what to do for a delivery to arrive,
// naming a webhook that is subscribed to the event it suggests: one that
// points here already, else one the Webhooks screen's l can point here,
// else L adding one. The webhooks are read when the screen is entered.

// suggestedEvent is what the hint suggests making happen: the freeze the
// Card screen does, or t sends.
const suggestedEvent = "card.frozen"

// hooksRead is the answer to the read of the partner's webhooks.
type hooksRead struct{ hooks []apiclient.Webhook }

// readHooks reads the webhooks for the hint, on a sandbox gateway with a
// listener and a signed-in user; a failure only leaves the general hint.
func (s *Screen) readHooks() tea.Cmd {
	if s.Deps.Events == nil || !s.Deps.LocalSandbox() || !s.Deps.Client.Session().Valid() {
		return nil
	}
	client := s.Deps.Client
	var cmd tea.Cmd
	s.hooksID, cmd = ui.Go(s.Requests, func(ctx context.Context) (hooksRead, error) {
		hooks, err := client.Webhooks(ctx)
		return hooksRead{hooks: hooks}, err
	})
	return cmd
}

// hookHint is the hint's text from the webhooks read, "" before they are.
func (s *Screen) hookHint() string {
	if s.hooks == nil {
		return ""
	}
	card := s.Deps.ScreenNamed(screenkit.CardScreen, "Card")
	then := "freeze the card on " + card + ", or press " + s.keys.TestEvent.Help().Key + " here to send a test " + suggestedEvent + "."
	subscribed := func(h apiclient.Webhook) bool { return h.IsActive && slices.Contains(h.EventTypes, suggestedEvent) }
	for _, h := range *s.hooks {
		if h.URL == s.Deps.EventsURL && subscribed(h) {
			return `No delivery yet. Webhook "` + sanitize.Text(h.Name) + `" points here and is subscribed to ` + suggestedEvent + ": " + then
		}
	}
	webhooks := s.Deps.ScreenNamed(screenkit.WebhooksScreen, "Webhooks")
	if i := slices.IndexFunc(*s.hooks, subscribed); i >= 0 {
		return "No delivery yet. On " + webhooks + `, select "` + sanitize.Text((*s.hooks)[i].Name) + `" (subscribed to ` + suggestedEvent +
			") and press " + keymap.Key("webhooks.listen") + " to point it at this listener; then " + then
	}
	return "No delivery yet. No webhook is subscribed to " + suggestedEvent + ": on " + webhooks +
		", " + keymap.Key("webhooks.listen-new") + " adds one for this listener, subscribed to every event the sandbox sends; then " + then
}

// wrapHint wraps text to the width, muted.
func (s *Screen) wrapHint(text string) []string {
	lines := strings.Split(ansi.Wrap(text, max(s.Width, 20), " "), "\n")
	for i, l := range lines {
		lines[i] = s.Deps.Styles.Muted.Render(l)
	}
	return lines
}
