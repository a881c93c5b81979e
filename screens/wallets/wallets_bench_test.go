package wallets

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui/uitest"
)

// BenchmarkWalletsKeyPress is one key press (Update and View of the whole
// frame, the root's status bar, navigation and help included) on the
// Wallets screen at 120x40: down and up in turn.
func BenchmarkWalletsKeyPress(b *testing.B) {
	app := screentest.New(b, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(New)))
	app.SignIn("alice@demo.test")
	app.Resize(120, 40)
	app.Keys("4")
	screentest.MustShow(b, app.Screen(), "USDC")
	keys := []tea.KeyPressMsg{uitest.Key("down"), uitest.Key("up")}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		app.Root, _ = app.Root.Update(keys[i%2])
		_ = app.Root.View()
		i++
	}
}
