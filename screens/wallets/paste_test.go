package wallets

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
)

// A paste into the withdrawal amount is kept: cleaned of a terminal's
// escapes, and cut to the field's limit with a word, never dropped.
func TestWithdrawAmountTakesPastes(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("w")
	a.Drive(tea.PasteMsg{Content: "\x1b[1m100\x1b[0m\n"})
	amount := openWithdrawForm(t, a)
	if got := amount.Value("amount"); got != "100" {
		t.Fatalf("amount %q after a paste", got)
	}
	a.MustShow(t, "removed 2 escape sequences from the paste", "will arrive: 99.55 USDC")
	a.Keys("ctrl+u")
	a.Drive(tea.PasteMsg{Content: "1234567890123456789012345678901234567890"})
	got := amount.Value("amount")
	if got == "" || len(got) >= 40 {
		t.Fatalf("amount %q after an over-long paste", got)
	}
	a.MustShow(t, "pasted the first 24 of 40 characters: Amount (USDC) takes 24 at most")
}
