package screentest

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui/uitest"
)

// BenchScreenKeyPress measures one key press on a screen, Update and View
// of the whole frame (the root's status bar, navigation and help
// included), at 120x40 with alice signed in: jump opens the screen, shows
// is checked on it, then down and up in turn.
func BenchScreenKeyPress(b *testing.B, signIn, screen Build, jump, shows string) {
	b.Helper()
	app := NewSignedIn(b, signIn, "alice@demo.test", WithScreen(screen))
	app.Resize(120, 40)
	app.Keys(jump)
	app.MustShow(b, shows)
	uitest.BenchKeyPresses(b, func(k tea.KeyPressMsg) {
		app.Root, _ = app.Root.Update(k)
		_ = app.Root.View()
	}, "down", "up", 1)
}
