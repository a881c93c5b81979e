package card_test

import (
	"strings"
	"testing"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui"
)

// In the card details form a click focuses the field drawn there, with
// the form beside the card (wide) or under it (narrow); a click on the
// card's side of the line focuses nothing.
func TestCardFormTakesClicks(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 40}} {
		app := newApp(t, screentest.WithSize(size[0], size[1]))
		app.SignIn("alice@demo.test")
		app.Open(screenkit.CardScreen)
		app.Keys("D")
		// The form marks the field in focus with ›.
		focused := func(label string) bool { return strings.Contains(app.Screen(), "› "+label) }
		app.ClickOn("Number text")
		if !focused("Number text") {
			t.Fatalf("%v: a click on Number text did not focus it:\n%s", size, app.Screen())
		}
		x, y := app.Find("Card background")
		app.Click(x, y)
		if !focused("Card background") {
			t.Fatalf("%v: a click on Card background did not focus it:\n%s", size, app.Screen())
		}
		top, _ := app.UI().TopLayer()
		if plain, ok := top.(ui.PlainTyping); !ok || !plain.TypingPlain() {
			t.Fatalf("%v: a colour is not plain to presenter mode", size)
		}
		if x > 30 {
			_, number := app.Find("Number text")
			app.Click(x-30, number) // the card's fields, left of the form
			if !focused("Card background") {
				t.Fatalf("%v: a click left of the form moved the focus:\n%s", size, app.Screen())
			}
		}
	}
}
