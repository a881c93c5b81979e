package events_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/screens/screentest"
	"cardterm/ui"
)

// R on a delivery asks, showing the request, then the sandbox delivers
// the same event again: the listener gets a second delivery with the
// same event id, verified.
func TestResendDeliversTheSameEventIDAgain(t *testing.T) {
	app, l := newApp(t, true)
	pointAtListener(t, app, l)
	if err := app.Client.FreezeCard(t.Context()); err != nil {
		t.Fatal(err)
	}
	first := waitReceived(t, l, 1)[0]
	if first.EventID == "" {
		t.Fatal("the sandbox's delivery names no event id")
	}
	// The resend goes in the same second of the sandbox's clock as the
	// first delivery: it is still signed with a later second (the same
	// timestamp and body would be a replay the listener refuses).
	app.Drive(ui.SignedInMsg{})
	app.Keys("R")
	spec, open := app.UI().Dialog()
	if !open || len(spec.Request) != 2 || spec.Request[0] != "POST /sandbox/events/"+first.EventID+"/resend" || spec.Request[1] != "{}" {
		t.Fatalf("R asked %v %+v", open, spec)
	}
	if n := app.Sent("POST", "/sandbox/events/"+first.EventID+"/resend"); n != 0 {
		t.Fatalf("sent %d resends before the answer", n)
	}
	app.Keys("y")
	if n := app.Sent("POST", "/sandbox/events/"+first.EventID+"/resend"); n != 1 {
		t.Fatalf("sent %d resends, want 1", n)
	}
	if !strings.Contains(app.Notice(), "card.frozen sent again to 1 webhook") {
		t.Fatalf("notice %q", app.Notice())
	}
	again := waitReceived(t, l, 2)
	if again[0].Seq == first.Seq {
		again[0], again[1] = again[1], again[0] // the newest, whichever end History puts it at
	}
	if again[0].EventID != first.EventID || !again[0].Verified || again[0].Seq == first.Seq {
		t.Fatalf("second delivery: event %q verified %v (%s) seq %d; first %q seq %d",
			again[0].EventID, again[0].Verified, again[0].Detail, again[0].Seq, first.EventID, first.Seq)
	}
	app.Keys("r")
	app.MustShow(t, "2 deliveries")
	if strings.Count(app.Screen(), "card.frozen") < 2 {
		t.Fatalf("the screen does not list both deliveries:\n%s", app.Screen())
	}

	// n cancels: nothing is sent.
	app.Keys("R", "n")
	if n := app.Sent("POST", "/sandbox/events/"+first.EventID+"/resend"); n != 1 {
		t.Fatalf("a cancelled resend was sent (%d)", n)
	}
}

// Anywhere but the sandbox gateway R is disabled with the reason, as t
// is; read-only mode disables it too.
func TestResendNeedsTheSandboxGateway(t *testing.T) {
	real, _ := newApp(t, false)
	real.Drive(ui.SignedInMsg{})
	real.Keys("R")
	if _, open := real.UI().Dialog(); open || !strings.Contains(real.Notice(), "sandbox gateway only") {
		t.Fatalf("R on a real gateway: dialog %v, notice %q", open, real.Notice())
	}
	ro, _ := newApp(t, true, screentest.ReadOnly())
	ro.Drive(ui.SignedInMsg{})
	ro.Keys("R")
	if _, open := ro.UI().Dialog(); open || !strings.Contains(ro.Notice(), "read-only mode") {
		t.Fatalf("R in read-only mode: dialog %v, notice %q", open, ro.Notice())
	}
}

// A click selects the delivery drawn there; the wheel moves the cursor
// in the list and scrolls the pane under the pointer.
func TestClickAndWheelOnTheDeliveries(t *testing.T) {
	app, l := newApp(t, true)
	pointAtListener(t, app, l)
	if err := app.Client.FreezeCard(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := app.Client.UnfreezeCard(t.Context()); err != nil {
		t.Fatal(err)
	}
	waitReceived(t, l, 2)
	app.Drive(ui.SignedInMsg{})
	app.Keys("r")
	lines := strings.Split(app.Screen(), "\n")
	selected, other := lineOf(t, app.Screen(), "› "), -1
	for i, line := range lines {
		if i > selected && strings.Contains(line, "card.") {
			other = i
			break
		}
	}
	if other < 0 {
		t.Fatalf("no second delivery under the selected one:\n%s", app.Screen())
	}
	x := ansi.StringWidth(lines[other][:strings.Index(lines[other], "card.")])
	app.Drive(tea.MouseClickMsg{X: x, Y: other, Button: tea.MouseLeft})
	if got := lineOf(t, app.Screen(), "› "); got != other {
		t.Fatalf("the click on line %d selected line %d:\n%s", other, got, app.Screen())
	}
	app.Drive(tea.MouseWheelMsg{X: x, Y: other, Button: tea.MouseWheelUp})
	if got := lineOf(t, app.Screen(), "› "); got != selected {
		t.Fatalf("the wheel up selected line %d, want %d", got, selected)
	}
}
