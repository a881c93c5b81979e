package e2e

import (
	"strings"
	"testing"

	"cardterm/sandbox/gatewaytest"
)

// Once the PIN is set on the hosted page (posted by an HTTP client as a
// browser would, following the page's redirect), the Card screen says the
// link was used and when, not that it is valid for minutes more; p gets a
// new link.
func TestSetPINLinkSaysItWasUsed(t *testing.T) {
	env, opened := browserRecorder(t)
	tm := startTerm(t, []string{env})
	tm.waitFor("Sandbox demo accounts", "alice@demo.test")
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")
	tm.open("Card")
	tm.waitFor("ACTIVE", "4242")
	tm.send("p")
	tm.waitFor("link valid for", "single use")
	link := waitOpened(t, opened, 1)[0]

	back := gatewaytest.SetPINInBrowser(t, link, "2468")
	if !strings.Contains(back, "Back to cardterm") {
		t.Fatalf("the page did not send the browser back to cardterm:\n%s", back)
	}

	s := tm.waitFor("link used at", "p requests a new one")
	if strings.Contains(s, "valid for") {
		t.Fatalf("a used link is shown as valid:\n%s", s)
	}
	tm.send("p")
	tm.waitFor("link valid for", "single use")
	if urls := waitOpened(t, opened, 2); urls[1] == link {
		t.Fatal("p opened the used link again")
	}
}
