package ui_test

import (
	"strings"
	"testing"

	"cardterm/ui/uitest"
)

// : opens a screen by its name, whatever its place in the navigation: the
// footer says which screen enter would open, a prefix or a part of the
// title will do, letter case aside, and an unknown name says so and stays.
func TestGoToOpensAScreenByName(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(uitest.Key(":"), uitest.Key("c"), uitest.Key("A"))
	if view := f.view(); !strings.Contains(view, "go to: cA") || !strings.Contains(view, "→ Card") {
		t.Fatalf("the prompt does not say where enter goes:\n%s", view)
	}
	// While the prompt is open, letters type: f is not the screen's key.
	f.drive(uitest.Key("enter"))
	if f.root.Active() != f.card || len(f.account.keys) != 0 {
		t.Fatalf("enter did not open Card (active %s, account got %v)", f.root.Active().Title(), f.account.keys)
	}
	f.drive(uitest.Key(":"), uitest.Key("c"), uitest.Key("o"), uitest.Key("u"), uitest.Key("n"), uitest.Key("t"))
	if view := f.view(); !strings.Contains(view, "→ Account") {
		t.Fatalf("a part of the title does not find the screen:\n%s", view)
	}
	f.drive(uitest.Key("enter"))
	if f.root.Active() != f.account {
		t.Fatalf("enter did not open Account: %s", f.root.Active().Title())
	}
	f.drive(uitest.Key(":"), uitest.Key("z"), uitest.Key("enter"))
	if n, ok := f.root.CurrentNotice(); !ok || !strings.Contains(n.Text, `no screen or action is called "z"`) || f.root.Active() != f.account {
		t.Fatalf("an unknown name: notice %+v, active %s", n, f.root.Active().Title())
	}
	f.drive(uitest.Key(":"), uitest.Key("c"), uitest.Key("backspace"), uitest.Key("esc"))
	if strings.Contains(f.view(), "go to:") || f.root.Active() != f.account {
		t.Fatal("esc did not close the prompt where it was")
	}
}
