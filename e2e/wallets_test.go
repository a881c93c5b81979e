package e2e

import (
	"strings"
	"testing"
)

func TestWalletsLinkUntilFiveAndSixthRefused(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "lena@demo.test")
	tm.open("Wallets")
	tm.waitFor("5 linked to the card (limit 5)", "linked #5")
	tm.confirm("u", "Unlink the USDC wallet from the card?", "DELETE /v1/wallet/internal/card_linked")
	tm.waitFor("4 linked to the card (limit 5)", "unlinked")
	tm.confirm("l", "Link the USDC wallet to the card?", "POST /v1/wallet/internal/card_linked")
	tm.waitFor("5 linked to the card (limit 5)", "linked to the card")
	tm.send("G")
	tm.send("l")
	tm.waitFor("cannot link another wallet: 5 of 5 are linked", "unlink one first (u)")
}

func TestWhitelistAddTwoBadAddressDeleteBoth(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Whitelist")
	tm.waitFor("2 approved withdrawal addresses", "Savings")

	entry := func(name, first, last, addr string) {
		tm.typeText(name)
		tm.send("Tab")
		tm.typeText(first)
		tm.send("Tab")
		tm.typeText(last)
		tm.send("Tab")
		tm.typeText(addr)
	}
	tm.send("a")
	tm.waitFor("Add whitelist entries")
	entry("Rent", "Ann", "Lee", "0x00000000219ab540356cBB839Cbe05303d7705Fa")
	tm.send("C-n")
	tm.waitFor("Entry 2")
	entry("Gym", "Bo", "Ek", "0xBE0eB53F46cd790Cd13851d5EFf43D12404d33E8")
	tm.confirm("C-s", "Add 2 whitelist entries?", "POST /v1/wallet/whitelist")
	tm.waitFor("4 approved withdrawal addresses", "Rent", "Ann Lee", "Gym", "Bo Ek", "added 2 whitelist entries")

	// A bad address: nothing is sent, the form stays filled, the entry is marked.
	tm.send("a")
	tm.waitFor("Add whitelist entries")
	entry("Broken", "Cy", "Do", "0x123")
	tm.send("C-s")
	tm.waitFor("Fix the marked fields", "✗ Entry 1", "invalid address format", "Broken", "0x123")
	tm.send("Escape")
	tm.waitFor("4 approved withdrawal addresses")

	// Mark both new entries (rows 3 and 4) and delete them.
	tm.send("j", "j", "Space", "j", "Space")
	tm.waitFor("2 marked")
	tm.confirm("x", "Delete 2 whitelist entries?", "Rent", "Gym")
	s := tm.waitFor("2 approved withdrawal addresses", "deleted 2 whitelist entries")
	if strings.Contains(s, "Ann Lee") || strings.Contains(s, "Bo Ek") {
		t.Fatalf("deleted entries still listed:\n%s", s)
	}
}

func TestWithdrawShowsTxHashAndNewBalance(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Wallets")
	tm.waitFor("500.00 USDC", "WITHDRAWABLE")
	tm.send("w")
	tm.waitFor("Withdraw from the credit wallet", "0.45 USDC")
	tm.typeText("100")
	tm.waitFor("will arrive: 99.55 USDC")
	tm.confirm("Enter", "Withdraw 100 USDC?", "Network fee:  0.45 USDC", "Will arrive:  99.55 USDC")
	tm.waitFor("Tx hash  0x", "400.00 USDC", "Arrives  99.55 USDC", "withdrawal sent")
}

// A wallet reorder asks first, says what the gateway forces, and leaves
// every wallet linked.
func TestWalletReorderAsksFirstAndKeepsAllLinked(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "lena@demo.test")
	tm.open("Wallets")
	tm.waitFor("5 linked to the card (limit 5)")
	tm.send("j", "J")
	tm.waitFor("Move the USDT wallet to priority #3?", "unlinked and linked again")
	tm.send("y")
	tm.waitFor("USDT wallet is now priority #3", "5 linked to the card (limit 5)", "#3 USDT")
}
