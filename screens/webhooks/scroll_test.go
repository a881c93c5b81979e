package webhooks

import (
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/screens/screentest"
)

// flakyWithAttempts adds a configuration whose receiver answers 503 and
// freezes the card, so its detail lists a failed delivery with its five
// attempts; it returns once the sandbox has given up.
func flakyWithAttempts(t *testing.T, a *screentest.App) {
	t.Helper()
	failedDelivery(t, a, "Flaky", failingReceiver(t, 503))
}

// failedDelivery adds a configuration named name that sends card.frozen
// to url, freezes the card, and returns once the sandbox has given up on
// the delivery.
func failedDelivery(t *testing.T, a *screentest.App, name, url string) {
	t.Helper()
	if _, err := a.Client.CreateWebhook(t.Context(), apiclient.WebhookCreate{Name: name, URL: url,
		EventTypes: []string{"card.frozen"}, IsActive: true}); err != nil {
		t.Fatal(err)
	}
	if err := a.Client.FreezeCard(t.Context()); err != nil {
		t.Fatal(err)
	}
	hook := hooksOnServer(a)[2]
	deadline := time.Now().Add(5 * time.Second)
	for ds, _ := a.Client.WebhookDeliveries(t.Context(), hook.ID); len(ds) == 0 || ds[0].State != "failed"; ds, _ = a.Client.WebhookDeliveries(t.Context(), hook.ID) {
		if time.Now().After(deadline) {
			t.Fatal("the delivery did not fail in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// At 80x24 a detail with its delivery attempts is taller than the body:
// the scroll keys the help lists reach all of it, and the page says what
// is hidden above and below.
func TestWebhooksDetailScrollsAt80x24(t *testing.T) {
	a := newApp(t, "alice@demo.test", screentest.WithSize(80, 24))
	flakyWithAttempts(t, a)
	a.Keys("r", "j", "j", "enter")
	s := a.Screen()
	screentest.MustShow(t, s, "Webhook Flaky", "more lines below")
	screentest.MustNotShow(t, s, "#5  503", "y copy url", "above")
	screentest.MustShow(t, a.Footer(), "↓/j scroll down")

	a.Keys("end")
	s = a.Screen()
	screentest.MustShow(t, s, "#5  503 Service Unavailable", "y copy url", "more lines above")
	screentest.MustNotShow(t, s, "below", "Webhook Flaky")

	a.Keys("home")
	s = a.Screen()
	screentest.MustShow(t, s, "Webhook Flaky", "more lines below")
	screentest.MustNotShow(t, s, "above")

	a.Keys("j")
	a.MustShow(t, "↑ 1 more line above")
	a.Keys("k", "pgdown")
	a.MustShow(t, "more lines above")
	a.Keys("pgup")
	a.MustNotShow(t, "above")

	// The wheel scrolls it too.
	a.Wheel(40, 10, 2)
	a.MustShow(t, "↑ 6 more lines above")

	// Closed and opened again, it starts at its top.
	a.Keys("esc", "enter")
	a.MustShow(t, "Webhook Flaky")
	a.MustNotShow(t, "above")

	// The help lists the keys that scroll it.
	a.Keys("?")
	s = a.Screen()
	for _, want := range []string{"scroll up", "scroll down", "page up", "page down", "top", "bottom"} {
		if !strings.Contains(s, want) {
			t.Errorf("the help lacks %q:\n%s", want, s)
		}
	}
}

// A detail that fits has no sign and its help offers no scrolling.
func TestWebhooksDetailThatFitsDoesNotScroll(t *testing.T) {
	a := newApp(t, "alice@demo.test", screentest.WithSize(120, 40))
	a.Keys("enter")
	s := a.Screen()
	screentest.MustShow(t, s, "Webhook Ledger sync", "y copy url")
	screentest.MustNotShow(t, s, "more lines", "more line ")
	a.Keys("j")
	a.MustNotShow(t, "above")
	a.Keys("?")
	a.MustNotShow(t, "scroll down")
}
