package e2e

import (
	"testing"
	"time"

	"cardterm/sandbox"
)

// A payment declined on the gateway while the app runs appears as a
// notice at the next read of the alerts (every 2 s here), whatever screen
// is open. The sandbox runs in the test process; the transaction is added
// with sandbox.Server.AppendTransaction, as `cardterm sandbox simulate`
// adds one.
func TestDeclinedTransactionAppearsAsANotice(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=" + sandbox.DemoSecretKey, "CARDTERM_ALERT_INTERVAL=2s"},
		"--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox")
	tm.waitFor("Sign in to the Card and Wallet Gateway")
	tm.signInWithForm("alice@demo.test", "demo-pass")
	tm.waitFor("Alice", "VERIFIED", "1 Account")
	// The session's first read learns what is there; wait until it has.
	deadline := time.Now().Add(e2eWait)
	for transactionReads(sb.Server) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the alerts never read the transactions")
		}
		time.Sleep(50 * time.Millisecond)
	}
	added := time.Now()
	if _, err := sb.Server.AppendTransaction("alice@demo.test", sandbox.NewTransaction{
		Amount: "12.40", Status: "DECLINED", Merchant: "Corner Shop, Lyon FR", DeclineReason: "INSUFFICIENT_FUNDS"}); err != nil {
		t.Fatal(err)
	}
	tm.waitFor("Declined: -12.40 EUR at Corner Shop, Lyon FR (INSUFFICIENT_FUNDS)")
	t.Logf("the notice came %s after the transaction (alert interval 2s)", time.Since(added).Round(10*time.Millisecond))
}

// transactionReads is how many times the sandbox was asked for the list.
func transactionReads(s *sandbox.Server) int {
	n := 0
	for _, r := range s.Requests() {
		if r.Method == "GET" && r.Path == "/v1/card/transactions" {
			n++
		}
	}
	return n
}
