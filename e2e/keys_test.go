package e2e

import (
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
)

// Help is reachable on the sign-in screen: on the sandbox the keys start
// on the demo-account list, where ? opens it as the footer says; in a text
// field (where ? types) f1 does, and the footer offers f1, not ?.
func TestHelpOnTheSignInScreen(t *testing.T) {
	tm := startTerm(t, nil)
	tm.waitFor("Sign in to the Card and Wallet Gateway", "› Sandbox demo accounts", "? help", "enter sign in")
	tm.send("?")
	tm.waitFor("Help", "sign in", "close help")
	tm.send("Escape")
	tm.waitFor("Sandbox demo accounts")
	tm.send("Tab") // to the username
	s := tm.waitFor("f1 help", "tab next field")
	if strings.Contains(s, "? help") {
		t.Fatalf("while a field has focus the footer must not offer ?, which types:\n%s", s)
	}
	tm.send("F1")
	s = tm.waitFor("Help", "close help", "Global (while typing)")
	if strings.Contains(s, "q   quit") {
		t.Fatalf("the help in a text field offers q, which types:\n%s", s)
	}
}

// A demo account picked from the list signs in as that account: the list
// has the keys from the start, ↓ and enter.
func TestDemoAccountPickedFromTheListSignsIn(t *testing.T) {
	tm := startTerm(t, nil)
	tm.waitFor("Sandbox demo accounts", "frank@demo.test", "enter sign in")
	tm.send("Down")
	tm.waitFor("row 2 of")
	tm.send("Enter")
	s := tm.waitFor("Frank Osei", "VERIFIED")
	if strings.Contains(s, "Alice") {
		t.Fatalf("signed in as the prefilled user instead of the one picked:\n%s", s)
	}
}

// A failing action's notice stays until the next key, and after it has
// gone it can still be read, with its time, in the notice log.
func TestFailedActionReadableInTheNoticeLog(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	tm := startTermSignedIn(t, sb)
	tm.waitFor("Alice", "VERIFIED")

	sb.Server.SetFaults(sandbox.Faults{ErrorRate: 1})
	tm.send("r")
	tm.waitFor("Internal server error")
	tm.send("Escape")
	tm.waitGone("Internal server error")
	sb.Server.SetFaults(sandbox.Faults{})
	tm.send("m")
	s := tm.waitFor("Notices", "Internal server error")
	if !strings.Contains(s, "Account") {
		t.Fatalf("the notice log does not say which screen raised it:\n%s", s)
	}
}

// waitGone waits until text is no longer on screen.
func (tm *tmuxTerm) waitGone(text string) {
	tm.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for strings.Contains(tm.screen(), text) {
		if time.Now().After(deadline) {
			tm.t.Fatalf("%q stays on screen:\n%s", text, tm.screen())
		}
		time.Sleep(40 * time.Millisecond)
	}
}
