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
	screentest.MustShow(t, app.Screen(), "go to: fre", "freeze the card (or unfreeze it)", "→ freeze the card")
	app.Keys("enter")
	screentest.MustShow(t, app.Screen(), "Freeze the card ending 4242?", "POST /v1/card/freeze")
	app.Keys("y")
	screentest.MustShow(t, app.Screen(), "FROZEN", "card frozen")

	nora := newApp(t)
	nora.SignIn("nora@demo.test")
	nora.Open(screenkit.CardScreen)
	nora.Keys(":")
	nora.Type("freeze")
	screentest.MustShow(t, nora.Screen(), "freeze the card", "freeze/unfreeze needs a card: there is none yet")
	nora.Keys("enter")
	screentest.MustNotShow(t, nora.Screen(), "Freeze the card ending", "go to:")
	if got := nora.Notice(); !strings.Contains(got, "freeze/unfreeze needs a card: there is none yet, order one with n") {
		t.Fatalf("enter on a disabled action: notice %q", got)
	}
}

// The palette also lists the global actions and the screens, matched by any
// part of their words.
func TestPaletteListsGlobalActionsAndScreens(t *testing.T) {
	app := newApp(t)
	app.SignIn("alice@demo.test")
	app.Open(screenkit.CardScreen)
	app.Keys(":")
	app.Type("log")
	screentest.MustShow(t, app.Screen(), "open the notice log", "m")
	app.Keys("esc", ":")
	app.Type("ccount")
	screentest.MustShow(t, app.Screen(), "go to Account", "1")
	app.Keys("esc")
	app.Keys(":")
	app.Type("acc")
	app.Keys("enter")
	screentest.MustShow(t, app.Screen(), "Account")
}
