package webhooks

import (
	"testing"
)

// A click selects the endpoint drawn there and a second click opens its
// detail; the wheel moves the cursor; in the form a click focuses the
// field drawn there.
func TestWebhooksTakeClicksAndTheWheel(t *testing.T) {
	a := newApp(t, "alice@demo.test")
	first := a.SelectedLine()
	x, crm := a.Find("CRM (paused)")
	if crm == first {
		t.Fatalf("CRM is selected already:\n%s", a.Screen())
	}
	a.Click(x, crm)
	if got := a.SelectedLine(); got != crm {
		t.Fatalf("a click on line %d selected line %d:\n%s", crm, got, a.Screen())
	}
	a.Wheel(x, crm, -1)
	if got := a.SelectedLine(); got != first {
		t.Fatalf("the wheel up selected line %d, want %d", got, first)
	}
	a.Click(x, first)
	a.MustShow(t, "Webhook Ledger sync", "whsec_********")
	a.Keys("esc")

	a.Keys("a")
	form := a.UI().Active().(*Screen).form.form
	a.ClickOn("Other events")
	if got := form.Focused(); got != keyOther {
		t.Fatalf("a click on Other events focused %q", got)
	}
	a.ClickOn("Metadata")
	if got := form.Focused(); got != keyMeta {
		t.Fatalf("a click on Metadata focused %q", got)
	}
}
