package screens_test

import (
	"slices"
	"testing"

	"cardterm/screens"
	"cardterm/ui"
)

// f2, which hides or shows the keys pressed from anywhere (before a text
// field gets the key), is no screen's key, in any state a screen's keys
// are shown in, nor another global key's.
func TestPresenterKeyCollidesWithNothing(t *testing.T) {
	app := allScreens(t)
	app.SignIn("alice@demo.test")
	global := ui.GlobalKeys()
	for _, group := range global.FullHelp() {
		for _, b := range group {
			if b.Help().Desc != global.Presenter.Help().Desc && slices.Contains(b.Keys(), "f2") {
				t.Errorf("global %q is also f2", b.Help().Desc)
			}
		}
	}
	for _, s := range screens.All(app.Deps) {
		app.Open(s.ID())
		for _, group := range app.Front().KeyMap().FullHelp() {
			for _, b := range group {
				if slices.Contains(b.Keys(), "f2") {
					t.Errorf("%s binds f2 (%q)", s.Title(), b.Help().Desc)
				}
			}
		}
	}
}
