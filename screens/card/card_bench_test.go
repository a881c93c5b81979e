package card_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/screens/card"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui/uitest"
)

// BenchmarkCardKeyPress is one key press (Update and View of the whole
// frame, the root's status bar, navigation and help included) on the
// Card screen at 120x40: down and up in turn.
func BenchmarkCardKeyPress(b *testing.B) {
	app := screentest.New(b, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(card.New)))
	app.SignIn("alice@demo.test")
	app.Resize(120, 40)
	app.Keys("2")
	screentest.MustShow(b, app.Screen(), "ACTIVE")
	keys := []tea.KeyPressMsg{uitest.Key("down"), uitest.Key("up")}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		app.Root, _ = app.Root.Update(keys[i%2])
		_ = app.Root.View()
		i++
	}
}
