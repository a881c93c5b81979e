package e2e

import (
	"regexp"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// The end-to-end journeys against a gateway that answers every record the
// interface does not show in its own shapes (the sandbox's alternate-shapes
// mode): the screens draw what arrived, nothing shows as a row of blanks,
// and i shows exactly what the gateway sent.

// startAltShapes serves an alternate-shapes sandbox in the test process and
// signs alice in to it from the real binary, as with a remote gateway.
func startAltShapes(t *testing.T) *tmuxTerm {
	t.Helper()
	tm := startTermSignedIn(t, startSandboxInProcess(t, sandbox.Options{AltShapes: true}))
	tm.waitFor("Alice", "VERIFIED", "1 Account")
	return tm
}

// datePattern is a date as the app writes it.
var datePattern = regexp.MustCompile(`20\d\d-\d\d-\d\d \d\d:\d\d`)

func TestAltShapesTransactionsShowMerchantAndInspect(t *testing.T) {
	tm := startAltShapes(t)
	tm.open("Transactions")
	s := tm.waitFor("Created at", "Merchant name", "Amount", "-53.63 EUR", "State", "Zara", "Selected transaction", "Merchant city", "Madrid")
	if !datePattern.MatchString(s) {
		t.Fatalf("no dates in the list:\n%s", s)
	}
	tm.send("i")
	s = tm.waitFor("JSON as the gateway sent it", `"transactionId"`, `"merchant": {`, `"name": "Zara"`)
	if strings.Contains(s, "Selected transaction") {
		t.Fatalf("the inspector does not cover the screen:\n%s", s)
	}
	tm.send("Escape")
	tm.waitFor("Selected transaction")
}

func TestAltShapesWalletsHistoryAndWithdrawal(t *testing.T) {
	tm := startAltShapes(t)
	tm.open("Wallets")
	tm.waitFor("Holdings available", "1250.50", "balance 320.00  allowance 150.00  spendable 150.00", "500.00 USDC")

	tm.send("h")
	s := tm.waitFor("History", "Occurred at", "Title", "Card payment")
	if !datePattern.MatchString(s) {
		t.Fatalf("history shows no dates:\n%s", s)
	}
	tm.send("Escape")
	tm.waitFor("Internal wallets", "External wallets")

	tm.send("w")
	tm.waitFor("Withdraw from the credit wallet", "Network fee", "0.45 USDC")
	tm.typeText("100")
	// The estimation is asked again for 100 USDC: what arrives is of 100.
	tm.confirm("Enter", "Withdraw 100 USDC?", "Network fee:  0.45 USDC", "Will arrive:  99.55 USDC")
	tm.waitFor("withdrawal sent", "Tx hash", "Received", "99.55", "400.00 USDC")
}
