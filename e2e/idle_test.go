package e2e

import (
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
)

// idleScreens are the screens visited before the idle minute, each left
// once its data is there.
var idleScreens = []struct{ name, ready string }{
	{"Card", "Card"}, {"Transactions", "page 1"}, {"Spending", "Spent"}, {"Wallets", "Wallets"},
	{"Whitelist", "Whitelist"}, {"Delegation", "Delegation"}, {"Orders", "eligible"},
	{"Consent", "Consent"}, {"Webhooks", "endpoints"}, {"Events", "Events"},
}

// An idle minute costs a gateway a few requests at most, whatever screen
// is open: the alerts' two reads (every 30 s) and nothing else; the
// sign-in screen costs none. Measured on the built binary in tmux against
// a headless sandbox, with its request log.
func TestAnIdleMinuteCostsAFewRequests(t *testing.T) {
	if testing.Short() {
		t.Skip("an idle minute")
	}
	sb := startSandboxInProcess(t, sandbox.Options{})
	tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=" + sandbox.DemoSecretKey},
		"--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox")
	tm.waitFor("Sign in to the Card and Wallet Gateway")
	time.Sleep(10 * time.Second)
	if n := len(sb.Server.Requests()); n != 0 {
		t.Fatalf("the sign-in screen sent %d requests in 10 s", n)
	}
	tm.signInWithForm("alice@demo.test", "demo-pass")
	tm.waitFor("Account")
	for _, s := range idleScreens {
		tm.open(s.name)
		tm.waitFor(s.ready)
	}
	time.Sleep(2 * time.Second) // the last answers land
	before := sb.Server.Requests()
	time.Sleep(time.Minute)
	after := sb.Server.Requests()
	idle := after[len(before):]
	var lines []string
	for _, r := range idle {
		lines = append(lines, r.Method+" "+r.Path)
	}
	t.Logf("an idle minute on Events: %d requests: %s", len(idle), strings.Join(lines, ", "))
	if len(idle) > 3 {
		t.Errorf("an idle minute cost %d requests: %v", len(idle), lines)
	}
}
