package card

import (
	"strings"
	"testing"
	"time"

	"cardterm/sandbox/gatewaytest"
)

// Once the PIN is set through the link, the panel says the link was used
// and when, stops counting down a dead link, offers neither copy nor
// reopen, and p gets a new link.
func TestCardSetPINLinkSaysWhenItWasUsed(t *testing.T) {
	r := cardRig(t, "alice@demo.test")
	r.Want("ACTIVE", "4242")
	r.Keys("p")
	r.Want("link valid for 10:00")
	page := gatewaytest.SetPINInBrowser(t, r.opened[0], "1357")
	if !strings.Contains(page, "Back to cardterm") {
		t.Fatalf("the browser did not come back to cardterm:\n%s", page)
	}
	r.Now = r.Now.Add(90 * time.Second)
	screen := r.Screen.(*Screen)
	r.Drive(nil, pinTickMsg{seq: screen.pin.seq})
	v := r.Want("link used at "+r.Now.Local().Format("15:04:05"), "p requests a new one")
	if strings.Contains(v, "valid for") || strings.Contains(v, "▀") {
		t.Fatalf("a used link is shown as valid:\n%s", v)
	}
	if _, _, ok := screen.CopyValue(); ok {
		t.Fatal("y copies a used link")
	}
	if _, _, ok := screen.OpenValue(); ok {
		t.Fatal("o reopens a used link")
	}
	if !strings.Contains(r.Notices(), "set-PIN link used") {
		t.Fatalf("no notice says the link was used:\n%s", r.Notices())
	}
	r.Keys("p")
	r.Want("link valid for 10:00")
	if len(r.opened) != 2 || r.opened[1] == r.opened[0] {
		t.Fatalf("p did not open a new link: %v", r.opened)
	}
}
