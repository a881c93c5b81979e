package card_test

import (
	"testing"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui/uitest"
)

// A keys file binding card.freeze to F: F opens the freeze confirmation, f
// does nothing, and the footer, the help and the palette show F.
func TestFreezeOnTheUsersKey(t *testing.T) {
	uitest.UseKeys(t, "card.freeze: F\n")

	app := newApp(t)
	app.SignIn("alice@demo.test")
	app.Open(screenkit.CardScreen)
	screentest.MustShow(t, app.Footer(), "F freeze/unfreeze")
	screentest.MustNotShow(t, app.Footer(), "f freeze")
	app.Keys("f")
	app.MustNotShow(t, "Freeze the card ending")
	app.Keys("?")
	app.MustShow(t, "F freeze/unfreeze")
	app.Keys("esc", ":")
	app.Type("freeze")
	app.MustShow(t, "freeze the card (or unfreeze it)        ")
	app.Keys("esc", "F")
	app.MustShow(t, "Freeze the card ending 4242?")
	app.Keys("y")
	app.MustShow(t, "FROZEN")
}
