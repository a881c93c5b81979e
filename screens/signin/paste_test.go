package signin

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screentest"
)

// A paste into the sign-in form is cleaned and kept, as in every form
// (form.PasteInto): escapes and bidi controls removed with a word, the rest
// typed; a bidi override typed into the username shows as a mark.
func TestSignInPasteIsCleanedAndKept(t *testing.T) {
	app := newApp(t)
	app.Keys("ctrl+u")
	app.Drive(tea.PasteMsg{Content: "alice\x1b[31m@demo\u202e.test\n"})
	s := app.UI().Active().(*Screen)
	if got := s.username.Value(); got != "alice@demo.test" {
		t.Fatalf("username %q after the paste, want the cleaned text", got)
	}
	if n := app.Notice(); !strings.Contains(n, "removed") {
		t.Fatalf("the paste's cleaning was not said: %q", n)
	}
	s.username.SetValue("evil\u202etxt")
	app.MustShow(t, "evil<U+202E>txt")
	screentest.MustBeClean(t, "the sign-in form", app.Root.View().Content)
}
