package card_test

import (
	"strings"
	"testing"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
)

// The palette (: and part of a name) lists the card's actions with their
// keys; enter on "freeze" opens the confirmation f opens; on a card that
// cannot be frozen the row says why, and enter gives the reason f gives.
func TestPaletteRunsTheCardsActions(t *testing.T) {
	app := newApp(t)
	app.SignIn("alice@demo.test")
	app.Open(screenkit.CardScreen)
	app.Keys(":")
	app.Type("fre")
	app.MustShow(t, "go to: fre", "freeze the card (or unfreeze it)", "→ freeze the card")
	app.Keys("enter")
	app.MustShow(t, "Freeze the card ending 4242?", "POST /v1/card/freeze")
	app.Keys("y")
	app.MustShow(t, "FROZEN", "card frozen")

	nora := newApp(t)
	nora.SignIn("nora@demo.test")
	nora.Open(screenkit.CardScreen)
	nora.Keys(":")
	nora.Type("freeze")
	nora.MustShow(t, "freeze the card", "freeze/unfreeze needs a card: there is none yet")
	nora.Keys("enter")
	nora.MustNotShow(t, "Freeze the card ending", "go to:")
	if got := nora.Notice(); !strings.Contains(got, "freeze/unfreeze needs a card: there is none yet, order one with n") {
		t.Fatalf("enter on a disabled action: notice %q", got)
	}
	// A BLOCKED card can be neither frozen nor unfrozen: the row says so
	// instead of opening a confirmation the gateway would refuse.
	bruno := newApp(t)
	bruno.SignIn("bruno@demo.test")
	bruno.Open(screenkit.CardScreen)
	bruno.Keys(":")
	bruno.Type("fre")
	bruno.MustShow(t, "freeze the card", "a BLOCKED card cannot be frozen or unfrozen")
	bruno.Keys("enter")
	bruno.MustNotShow(t, "Unfreeze the card ending", "go to:")
	if got := bruno.Notice(); !strings.Contains(got, "a BLOCKED card cannot be frozen or unfrozen: order a new one with n") {
		t.Fatalf("enter on freeze for a BLOCKED card: notice %q", got)
	}
}

// At 80 columns the palette is narrower than a reason: it wraps the
// reason under the row instead of cutting its end.
func TestPaletteWrapsAReasonItCannotFit(t *testing.T) {
	app := newApp(t, screentest.WithSize(80, 24))
	app.SignIn("bruno@demo.test")
	app.Open(screenkit.CardScreen)
	app.Keys(":")
	app.Type("fre")
	app.MustShow(t, "a BLOCKED card cannot be frozen or unfrozen:", "new one with n")
	app.MustNotShow(t, "…  │")
}

// The palette also lists the global actions and the screens, matched by any
// part of their words.
func TestPaletteListsGlobalActionsAndScreens(t *testing.T) {
	app := newApp(t)
	app.SignIn("alice@demo.test")
	app.Open(screenkit.CardScreen)
	app.Keys(":")
	app.Type("log")
	app.MustShow(t, "open the notice log", "m")
	app.Keys("esc", ":")
	app.Type("ccount")
	app.MustShow(t, "go to Account", "1")
	app.Keys("esc")
	app.Keys(":")
	app.Type("acc")
	app.Keys("enter")
	app.MustShow(t, "Account")
}
