package consent

import (
	"testing"

	"cardterm/screens/screentest"
)

// A click selects the consent drawn there, a second click on it opens its
// set, the wheel moves the cursor; in the audit trail a click selects a
// record; in the new-set form a click focuses the field drawn there.
func TestConsentTakesClicksAndTheWheel(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test")
	first := a.SelectedLine()
	x, marketing := a.Find("marketingNotifications")
	if marketing == first {
		t.Fatalf("marketingNotifications is selected already:\n%s", a.Screen())
	}
	a.Click(x, marketing)
	if got := a.SelectedLine(); got != marketing {
		t.Fatalf("a click on line %d selected line %d:\n%s", marketing, got, a.Screen())
	}
	a.Wheel(x, marketing, -1)
	if got := a.SelectedLine(); got != first {
		t.Fatalf("the wheel up selected line %d, want %d", got, first)
	}
	a.Wheel(x, marketing, 1)
	a.Click(x, marketing)
	a.MustShow(t, "Consent set", "this set's own status")
	a.Keys("esc")

	a.Keys("a")
	a.MustShow(t, "Audit trail", "records 1–50 of")
	top := a.SelectedLine()
	a.Click(x, top+2)
	if got := a.SelectedLine(); got != top+2 {
		t.Fatalf("a click on the third record selected line %d, want %d:\n%s", got, top+2, a.Screen())
	}
	a.Wheel(x, top, -1)
	if got := a.SelectedLine(); got != top+1 {
		t.Fatalf("the wheel up in the audit trail selected line %d, want %d", got, top+1)
	}
	a.Keys("esc")

	a.Keys("N")
	layer, _ := topForm(a)
	form := layer.Form
	a.ClickOn("eSignAct")
	if got := form.Focused(); got != "eSignAct" {
		t.Fatalf("a click on eSignAct focused %q:\n%s", got, a.Screen())
	}
	a.ClickOn("Policy")
	if got := form.Focused(); got != "policyType" {
		t.Fatalf("a click on Policy focused %q", got)
	}
}

// The wheel scrolls a consent set's detail too long for the body, and
// back to its top.
func TestConsentDetailScrollsWithTheWheel(t *testing.T) {
	a := newConsentApp(t, "alice@demo.test", screentest.WithSize(100, 14))
	a.Keys("enter")
	x, title := a.Find("this set's own status")
	a.Wheel(x, title+2, 1)
	a.MustNotShow(t, "this set's own status")
	a.Wheel(x, title+2, -1)
	a.MustShow(t, "this set's own status")
}
