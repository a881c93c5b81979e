package e2e

import (
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
)

// A notice raised on a screen out of sight does not take the status bar
// from the one the user reads: a slow freeze answered while Transactions
// is shown leaves its "view saved" notice there, and says "card frozen"
// when Card is opened.
func TestHiddenScreensNoticeLeavesTheStatusBar(t *testing.T) {
	slowFreeze := sandbox.RouteFault{Method: "POST", Path: "/v1/card/freeze", Latency: 4 * time.Second}
	sb := startSandboxInProcess(t, sandbox.Options{Faults: sandbox.Faults{Routes: []sandbox.RouteFault{slowFreeze}}})
	tm := startTermSignedIn(t, sb)
	tm.waitFor("1 Account")
	tm.open("card")
	tm.waitFor("ACTIVE", "f freeze/unfreeze")
	tm.confirm("f", "Freeze the card")
	tm.open("transactions")
	tm.waitFor("Transactions  page 1")
	tm.send("V")
	tm.waitFor("Save the filters as a view")
	tm.send("Tab", "Tab", "Tab", "Tab") // to the view's name
	tm.typeText("late")
	tm.send("C-s")
	tm.waitFor("view late saved")
	if !freezeInFlight(tm, sb) {
		t.Log("the freeze was answered before the view was saved: the notices did not meet")
	}
	deadline := time.Now().Add(e2eWait)
	for freezeInFlight(tm, sb) {
		if time.Now().After(deadline) {
			t.Fatalf("the freeze never ended:\n%s", tm.screen())
		}
		time.Sleep(40 * time.Millisecond)
	}
	// The view's notice is younger than the freeze's latency: it has not
	// faded, so only the card's notice could have taken it off.
	if s := tm.screen(); !strings.Contains(s, "view late saved") || strings.Contains(s, "card frozen") {
		t.Fatalf("the Card screen's notice took the status bar of Transactions:\n%s", s)
	}
	tm.open("card")
	tm.waitFor("FROZEN", "card frozen: transactions are declined")
}

// freezeInFlight reports whether the freeze was sent and the spinner on
// the status bar still says a request runs.
func freezeInFlight(tm *tmuxTerm, sb *sandbox.Running) bool {
	sent := false
	for _, r := range sb.Server.Requests() {
		sent = sent || r.Method == "POST" && r.Path == "/v1/card/freeze"
	}
	if !sent {
		return true // on its way
	}
	for _, line := range strings.Split(tm.screen(), "\n") {
		if strings.Contains(line, "alice@demo.test") && strings.ContainsAny(line, "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏") {
			return true
		}
	}
	return false
}
