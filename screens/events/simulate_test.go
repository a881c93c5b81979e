package events_test

import (
	"slices"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/ui"
)

func TestSimulatePanelMakesCardActivityArriveHere(t *testing.T) {
	app, l := newApp(t, true)
	hook, err := app.Client.CreateWebhook(t.Context(), apiclient.WebhookCreate{Name: "in-app", URL: l.URL,
		EventTypes: slices.Concat(apiclient.SandboxEmittedEventTypes, apiclient.SandboxSimulatedEventTypes), IsActive: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Receiver.AddKey(hook.APIKey); err != nil {
		t.Fatal(err)
	}
	app.Drive(ui.SignedInMsg{})
	app.Keys("s")
	app.MustShow(t, "Simulate card activity", "POST /sandbox/simulate", "authorization", "Coffee Corner", "5814")
	// A bad amount is the sandbox's refusal, shown on the form, what was typed kept.
	app.Keys("tab", "ctrl+u")
	app.Type("12.505")
	app.Keys("ctrl+s")
	app.MustShow(t, "at most two decimals", "12.505")
	app.Keys("ctrl+u")
	app.Type("12.50")
	app.Keys("ctrl+s")
	if n := app.Notice(); !strings.Contains(n, "Authorization of 12.50 EUR at Coffee Corner: PENDING") || !strings.Contains(n, "on its way here") {
		t.Fatalf("notice %q", n)
	}
	got := waitReceived(t, l, 1)
	if got[0].EventType != "transaction.authorized" || !got[0].Verified {
		t.Fatalf("received %+v", got[0])
	}
	app.Keys("r")
	app.MustShow(t, "transaction.authorized", "✓ verified", "Merchant name location", "Coffee Corner")

	// The clearing settles it.
	app.Keys("s")
	app.Keys("right") // the step: clearing comes after decline
	app.Keys("right")
	app.Keys("ctrl+s")
	if n := app.Notice(); !strings.Contains(n, "Clearing of 12.50 EUR at Coffee Corner: CONFIRMED") {
		t.Fatalf("notice %q", n)
	}
	waitReceived(t, l, 2)
}

func TestSimulateIsSandboxOnly(t *testing.T) {
	app, _ := newApp(t, false)
	app.Drive(ui.SignedInMsg{})
	app.Keys("s")
	app.MustNotShow(t, "Simulate card activity")
}
