package events_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox/webhookreceiver"
	"cardterm/screens/events"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

func TestMain(m *testing.M) {
	// The screen's wait for the next delivery never ends by itself; the
	// driver drops it after this long instead of the default 5 s (still far above
	// what a sandbox request takes on a loaded machine).
	uitest.CmdTimeout = time.Second
	screentest.Main(m)
}

// newApp mounts the Events screen with a listener; the client is signed
// in as alice but the root is not told yet.
func newApp(t *testing.T, sandboxGateway bool, opts ...screentest.Option) (*screentest.App, *screentest.InAppListener) {
	t.Helper()
	l, opt := screentest.WithInAppListener(t, sandboxGateway)
	app := screentest.New(t, screentest.Of(signin.New), append(opts, opt, screentest.WithScreen(screentest.Of(events.New)), screentest.WithSize(120, 40))...)
	if _, err := app.Client.Login(t.Context(), "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	return app, l
}

// pointAtListener creates a webhook on the sandbox for the listener and
// hands the listener its key, as the Webhooks screen does.
func pointAtListener(t *testing.T, app *screentest.App, l *screentest.InAppListener) {
	t.Helper()
	hook, err := app.Client.CreateWebhook(t.Context(), apiclient.WebhookCreate{Name: "in-app", URL: l.URL,
		EventTypes: apiclient.SandboxEmittedEventTypes, IsActive: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Receiver.AddKey(hook.APIKey); err != nil {
		t.Fatal(err)
	}
}

// waitReceived waits until the listener has n deliveries.
func waitReceived(t *testing.T, l *screentest.InAppListener, n int) []webhookreceiver.Delivery {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		if h := l.Receiver.History(); len(h) >= n {
			return h
		}
		if time.Now().After(deadline) {
			t.Fatalf("the listener received %d deliveries, want %d", len(l.Receiver.History()), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// lineOf is the index of the first line of screen containing text.
func lineOf(t *testing.T, screen, text string) int {
	t.Helper()
	for i, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, text) {
			return i
		}
	}
	t.Fatalf("screen lacks %q:\n%s", text, screen)
	return -1
}

func TestFreezeArrivesVerifiedThenTamperedRejectedOnTop(t *testing.T) {
	app, l := newApp(t, true)
	pointAtListener(t, app, l)
	if err := app.Client.FreezeCard(t.Context()); err != nil {
		t.Fatal(err)
	}
	first := waitReceived(t, l, 1)[0]
	app.Drive(ui.SignedInMsg{})
	screen := app.Screen()
	screentest.MustShow(t, screen, "listening on "+l.URL, "1 delivery", "card.frozen", "✓ verified", "VERIFIED",
		"Event ID", "Occurred", "Holder name", "FROZEN", "Signature", "Signed")

	// The same headers on a changed body: the listener answers 401 and
	// the screen shows it first, rejected, with the reason.
	tampered := strings.Replace(string(first.Body), "FROZEN", "ACTIVE", 1)
	req, _ := http.NewRequest(http.MethodPost, l.URL, strings.NewReader(tampered))
	req.Header = first.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("tampered delivery answered %d", resp.StatusCode)
	}
	waitReceived(t, l, 2)
	app.Keys("r")
	screen = app.Screen()
	screentest.MustShow(t, screen, "2 deliveries (1 rejected)", "REJECTED", "the signature does not match the body")
	if rejected, verified := lineOf(t, screen, "✗ rejected: wrong key or body changed"), lineOf(t, screen, "✓ verified"); rejected > verified {
		t.Fatalf("the newest (rejected) delivery is not on top:\n%s", screen)
	}

	// A rejected delivery is kept without its body: its size and first
	// bytes, nothing to inspect.
	screentest.MustShow(t, screen, "not kept ("+strconv.Itoa(len(tampered))+" bytes); it began {")
	screentest.MustNotShow(t, screen, "i raw JSON", `"ACTIVE"`)
	app.Keys("i")
	app.MustNotShow(t, "as received")

	// On a short terminal the pane scrolls to its last line and no further.
	app.Keys("j") // the verified delivery, whose fields are many
	app.Resize(80, 24)
	// It says what is hidden above and below as every scrolled pane
	// does, and the footer names the keys that scroll it.
	app.MustNotShow(t, "From  ", "more lines above")
	app.MustShow(t, "more lines below")
	screentest.MustShow(t, app.Footer(), "J scroll the detail down", "K scroll the detail up")
	app.Keys("J")
	app.MustShow(t, "↑ 1 more line above", "more lines below")
	for range 40 {
		app.Keys("J")
	}
	app.MustShow(t, "From  ", "Signature  ", "more lines above")
	app.MustNotShow(t, "below")
	app.Keys("K")
	app.MustShow(t, "more lines above", "more lines below")
	app.Resize(120, 40)
	app.Keys("k") // the rejected delivery, whose fields fit
	screentest.MustNotShow(t, app.Footer(), "scroll the detail")
	app.Keys("j")

	// i, the app's inspector, shows the body as received, pretty-printed;
	// i again closes it.
	app.Keys("i")
	app.MustShow(t, "as received", `"event_type": "card.frozen"`, `"status": "FROZEN"`)
	app.Keys("i")
	app.MustNotShow(t, `"event_type": "card.frozen"`)
}

func TestTestEventFormSendsToTheListener(t *testing.T) {
	app, l := newApp(t, true)
	pointAtListener(t, app, l)
	app.Drive(ui.SignedInMsg{})
	app.Keys("t")
	app.MustShow(t, "Send a test event", "POST /sandbox/trigger", "card.frozen")
	// A malformed type is refused on the form, what was typed kept (the
	// form opens with no field chosen: tab chooses the event type).
	app.Keys("tab", "ctrl+u")
	app.Type("Not A Type")
	app.Keys("ctrl+s")
	app.MustShow(t, "invalid event type", "Not A Type")
	app.Keys("ctrl+u")
	app.Type("kyc.status.changed")
	app.Keys("ctrl+s")
	if !strings.Contains(app.Notice(), "test kyc.status.changed sent to") {
		t.Fatalf("notice %q", app.Notice())
	}
	waitReceived(t, l, 1)
	app.Keys("r")
	app.MustShow(t, "kyc.status.changed", "✓ verified", "Verification state")
}

func TestHelpListsTheKeysAndRealGatewayDisablesTestEvents(t *testing.T) {
	app, _ := newApp(t, true)
	app.Drive(ui.SignedInMsg{})
	app.Keys("?")
	// With no delivery there is nothing to inspect: i is not offered.
	app.MustShow(t, "send a test event")
	app.MustNotShow(t, "inspect")
	app.Keys("esc")
	app.MustShow(t, "No delivery yet", "L adds one for")

	real, _ := newApp(t, false)
	real.Drive(ui.SignedInMsg{})
	real.MustShow(t, "public HTTPS", "cardterm listen", "forward-to URL")
	real.Keys("t")
	real.MustNotShow(t, "Send a test event")
	if n := real.Notice(); !strings.Contains(n, "sandbox gateway only") {
		t.Fatalf("notice %q", n)
	}
}

// R delivers the selected event again: with no delivery neither the
// footer nor the help offers it; once one has arrived both do.
func TestResendIsOfferedOnlyWithADelivery(t *testing.T) {
	app, l := newApp(t, true)
	pointAtListener(t, app, l)
	app.Drive(ui.SignedInMsg{})
	app.MustShow(t, "No delivery yet", "send a test event")
	app.MustNotShow(t, "deliver this event again")
	app.Keys("?")
	app.MustShow(t, "send a test event")
	app.MustNotShow(t, "deliver this event again")
	app.Keys("esc")

	if err := app.Client.FreezeCard(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitReceived(t, l, 1)
	app.Keys("r")
	app.MustShow(t, "card.frozen", "deliver this event again")
}
