package events_test

import (
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// flat is the screen's words on one line, so a wrapped hint reads whole.
func flat(screen string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(screen, "│", " ")), " ")
}

func TestEmptyHintNamesAWebhookSubscribedToWhatItSuggests(t *testing.T) {
	app, l := newApp(t, true)
	app.Drive(ui.SignedInMsg{})
	app.Open(screenkit.EventsScreen)
	// alice's partner has no webhook subscribed to card.frozen: pointing
	// one of them here would bring nothing, so the hint offers L.
	if s := flat(app.Screen()); !strings.Contains(s, "No webhook is subscribed to card.frozen: on the Webhooks screen, L adds one for this listener") {
		t.Fatalf("hint:\n%s", app.Screen())
	}
	create := func(name, url string, types ...string) {
		if _, err := app.Client.CreateWebhook(t.Context(), apiclient.WebhookCreate{Name: name, URL: url, EventTypes: types, IsActive: true}); err != nil {
			t.Fatal(err)
		}
	}
	create("Ledger audit", "https://ledger.example.test/in", "kyc.status.changed")
	create("Freeze watcher", "https://ops.example.test/in", "card.unfrozen", "card.frozen")
	app.Keys("r")
	if s := flat(app.Screen()); !strings.Contains(s, `select "Freeze watcher" (subscribed to card.frozen) and press l to point it at this listener`) {
		t.Fatalf("hint:\n%s", app.Screen())
	}
	create("Here", l.URL, "card.frozen")
	app.Keys("r")
	if s := flat(app.Screen()); !strings.Contains(s, `Webhook "Here" points here and is subscribed to card.frozen: freeze the card`) {
		t.Fatalf("hint:\n%s", app.Screen())
	}
}

// The hint names the keys in force: a keys file that moves the test event
// and the webhooks' listener actions moves the words with them.
func TestEmptyHintNamesTheKeysInForce(t *testing.T) {
	uitest.UseKeys(t, "events.test: T\nwebhooks.listen-new: N\n")
	app, _ := newApp(t, true)
	app.Drive(ui.SignedInMsg{})
	app.Open(screenkit.EventsScreen)
	s := flat(app.Screen())
	for _, want := range []string{"on the Webhooks screen, N adds one for this listener", "or press T here to send a test card.frozen"} {
		if !strings.Contains(s, want) {
			t.Errorf("the hint lacks %q:\n%s", want, app.Screen())
		}
	}
}
