package card_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui/uitest"
)

// BenchmarkCardFormKeyPress is one key press in the card details colours
// form (D) and the whole frame after it, at 120x40: the form's share of
// every key typed, with the card drawn beside it.
func BenchmarkCardFormKeyPress(b *testing.B) {
	app := newApp(b)
	app.SignIn("alice@demo.test")
	app.Open(screenkit.CardScreen)
	app.Resize(120, 40)
	app.Keys("D", "tab")
	app.MustShow(b, "Card background")
	uitest.BenchKeyPresses(b, func(k tea.KeyPressMsg) {
		app.Root, _ = app.Root.Update(k)
		_ = app.Root.View()
	}, "tab", "shift+tab", 1)
}
