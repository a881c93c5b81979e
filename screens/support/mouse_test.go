package support_test

import (
	"testing"

	"cardterm/sandbox"
	"cardterm/screens/support"
	"cardterm/ui"
)

// In a case a click selects the consent drawn there and the wheel moves
// the cursor; in the audit trail a click selects a record; back in the
// look-ups a second click on the selected one opens it again. While the
// secret key is typed, presenter mode is told it is not plain.
func TestSupportTakesClicksAndTheWheel(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test")})
	first := app.SelectedLine()
	x, marketing := app.Find("marketingNotifications")
	if first < 0 || marketing == first {
		t.Fatalf("no other consent under the selected one (line %d):\n%s", first, app.Screen())
	}
	app.Click(x, marketing)
	if got := app.SelectedLine(); got != marketing {
		t.Fatalf("a click on line %d selected line %d:\n%s", marketing, got, app.Screen())
	}
	app.Wheel(x, marketing, -1)
	if got := app.SelectedLine(); got != marketing-1 {
		t.Fatalf("the wheel up selected line %d, want %d", got, marketing-1)
	}

	app.Keys("a")
	app.MustShow(t, "Audit trail", "records loaded")
	top := app.SelectedLine()
	app.Click(x, top+3)
	if got := app.SelectedLine(); got != top+3 {
		t.Fatalf("a click on the fourth record selected line %d, want %d:\n%s", got, top+3, app.Screen())
	}
	app.Keys("esc", "esc")
	app.MustShow(t, "Recent look-ups")
	x, row := app.Find(sandbox.DemoUserID("alice@demo.test"))
	app.Click(x, row)
	app.Click(x, row)
	app.MustShow(t, "User "+sandbox.DemoUserID("alice@demo.test"), "marketingNotifications")

	app.Keys("j", "x")
	app.MustShow(t, "The secret key is needed")
	form, _ := app.UI().TopLayer()
	if plain, ok := form.(ui.PlainTyping); !ok || plain.TypingPlain() {
		t.Fatalf("the secret key's field is plain to presenter mode (%v, %T)", ok, form)
	}
}
