package wallets

import (
	"testing"

	"cardterm/screens/screenkit"
)

// A click selects the wallet drawn there (its address shows under the
// table), the wheel moves the cursor; in the withdrawal a click on the
// amount keeps it for typing.
func TestWalletsTakeClicksAndTheWheel(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	first := a.SelectedLine()
	x, btc := a.Find("bc1qp50cc04644p4c5cc7p7d0pap383cqpd8259p63")
	a.Click(x, btc)
	if got := a.SelectedLine(); got != btc {
		t.Fatalf("a click on line %d selected line %d:\n%s", btc, got, a.Screen())
	}
	a.MustShow(t, "row 3 of 3", "address bc1qp50cc04644p4c5cc7p7d0pap383cqpd8259p63")
	a.Wheel(x, btc, -2)
	if got := a.SelectedLine(); got != first {
		t.Fatalf("two steps of the wheel up selected line %d, want %d", got, first)
	}
	a.Click(x, first-1) // the header: the cursor stays
	if got := a.SelectedLine(); got != first {
		t.Fatalf("a click on the header moved the cursor to line %d", got)
	}

	a.Keys("w")
	form := openWithdrawForm(t, a)
	a.ClickOn("Withdraw from the credit wallet") // the title takes no focus
	a.ClickOn("Amount (USDC)")
	if got := form.Focused(); got != "amount" {
		t.Fatalf("a click on the amount focused %q", got)
	}
	a.Type("1")
	if got := form.Value("amount"); got != "1" {
		t.Fatalf("typed after the click, the amount is %q", got)
	}
}
