package signin

import (
	"strings"
	"testing"

	"cardterm/screens/screentest"
)

// The wheel moves in the demo accounts; a click on one selects it and
// gives the list the focus, a click on the one selected signs in as it
// (as enter does); a click on a field's label or box puts the cursor there. The same with
// the accounts beside the form and, on a small terminal, under it (one
// row in sight).
func TestSignInTakesClicksAndTheWheel(t *testing.T) {
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		app := newApp(t, screentest.WithDemo(), screentest.WithSize(size[0], size[1]))
		screen := func() *Screen { return app.UI().Active().(*Screen) }
		x, alice := app.Find("› alice@demo.test")
		app.Wheel(x, alice, 1)
		_, frank := app.Find("› frank@demo.test")
		app.Wheel(x, frank, -1)
		app.Find("› alice@demo.test")
		app.Wheel(x, alice, 1)
		_, frank = app.Find("› frank@demo.test")
		if screen().focus != focusDemo || screen().username.Value() != "alice@demo.test" {
			t.Fatalf("%v: the wheel on frank: focus %d, username %q", size, screen().focus, screen().username.Value())
		}
		// The list has the keys from the start: a click on the account
		// selected signs in as it, as enter does.
		app.Click(x, frank)
		if !app.UI().SignedIn() || app.Client.Session().Username != "frank@demo.test" {
			t.Fatalf("%v: a second click on frank did not sign in as frank: %s", size, app.Screen())
		}

		app = newApp(t, screentest.WithDemo(), screentest.WithSize(size[0], size[1]))
		app.ClickOn("Password")
		if screen().TypingPlain() {
			t.Fatalf("%v: the password is plain to presenter mode", size)
		}

		app.ClickOn("Username")
		if screen().focus != focusUsername || !screen().TypingPlain() {
			t.Fatalf("%v: a click on Username: focus %d", size, screen().focus)
		}
		app.Keys("ctrl+u")
		app.Type("bob")
		if got := screen().username.Value(); got != "bob" {
			t.Fatalf("%v: typed after the click, the username is %q", size, got)
		}
		left, password := app.Find("Password")
		app.Click(left+3, password+1) // in the password's box
		if screen().focus != focusPassword {
			t.Fatalf("%v: a click in the password's box: focus %d", size, screen().focus)
		}
		if strings.Contains(app.Screen(), "nora@demo.test") {
			_, nora := app.Find("nora@demo.test")
			app.Click(x, nora)
			if _, got := app.Find("› nora@demo.test"); got != nora {
				t.Fatalf("%v: a click on nora (line %d) selected line %d", size, nora, got)
			}
			if screen().focus != focusDemo {
				t.Fatalf("%v: a click on nora left the focus at %d", size, screen().focus)
			}
		}
	}
}
