package wallets

import (
	"context"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/screens/account"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/uitest"
)

func TestMain(m *testing.M) { screentest.Main(m) }

// newWalletApp signs user in on an app with Account and Wallets at 120x40;
// opts may add more (screentest.ReadOnly()).
var newWalletApp = screentest.Preset{SignIn: screentest.Of(signin.New),
	Options: []screentest.Option{screentest.WithScreen(screentest.Of(account.New), screentest.Of(New)), screentest.WithSize(120, 40)}}.NewSignedIn

// other signs in the same user on a second client, to change the server
// state behind the screen's back.
func other(a *screentest.App, user string) *apiclient.Client {
	a.T.Helper()
	c := apiclient.New(a.Client.Config())
	if _, err := c.Login(context.Background(), user, "demo-pass"); err != nil {
		a.T.Fatal(err)
	}
	return c
}

// openWithdrawForm is the withdrawal's form, which must be the layer on
// top.
func openWithdrawForm(t *testing.T, a *screentest.App) *form.Form {
	t.Helper()
	top, _ := a.UI().TopLayer()
	l, ok := top.(*withdrawLayer)
	if !ok {
		t.Fatalf("the withdrawal form is not on top: %T\n%s", top, a.Screen())
	}
	return l.Form
}

func TestWalletsOverview(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	s := a.Screen()
	screentest.MustShow(t, s, "Internal wallets · 1 linked to the card (limit 5)", "1250.50", "linked #1", "ETH", "BTC",
		"balance 320.00", "allowance 150.00", "spendable 150.00", "500.00 USDC", "WITHDRAWABLE")
}

func TestWalletsNoCreditYet(t *testing.T) {
	a := newWalletApp(t, "nora@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.MustShow(t, "No credit yet", "0 linked to the card (limit 5)", "None registered")
	a.Keys("w")
	if !strings.Contains(a.Notice(), "no credit wallet") {
		t.Fatalf("w without credit: %q", a.Notice())
	}
}

func TestWalletsSixthLinkRefusedBeforeSending(t *testing.T) {
	a := newWalletApp(t, "lena@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.MustShow(t, "5 linked to the card (limit 5)")
	a.Keys("G", "l")
	if got := a.Notice(); !strings.Contains(got, "cannot link another wallet: 5 of 5 are linked") {
		t.Fatalf("l with five linked: %q", got)
	}
	// Unlink the first, then link it back: 4, then 5 of 5.
	a.Keys("g", "u")
	a.MustShow(t, "Unlink the USDC wallet from the card?", "DELETE /v1/wallet/internal/card_linked")
	a.Keys("y")
	a.MustShow(t, "4 linked to the card (limit 5)", "USDC wallet unlinked")
	a.Keys("l")
	a.MustShow(t, "Link the USDC wallet to the card?", "POST /v1/wallet/internal/card_linked")
	a.Keys("y")
	a.MustShow(t, "5 linked to the card (limit 5)", "linked #5")
}

func TestWalletsGatewayRefusalShown(t *testing.T) {
	a := newWalletApp(t, "lena@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("u", "y") // 4 of 5
	a.MustShow(t, "4 linked to the card (limit 5)")
	// Someone links the sixth elsewhere; the screen still believes 4.
	other := other(a, "lena@demo.test")
	in, _ := other.InternalWallets(context.Background())
	if err := other.LinkWallet(context.Background(), in[5].AddressID); err != nil {
		t.Fatal(err)
	}
	a.Keys("l", "y")
	a.MustShow(t, "The gateway refused the link: A maximum of 5 wallets can be linked", "5 linked to the card (limit 5)")
}

func TestWalletsPriorityMove(t *testing.T) {
	a := newWalletApp(t, "lena@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("j", "J") // USDT from #2 to #3
	// A reorder asks first and says what the gateway forces.
	a.MustShow(t, "Move the USDT wallet to priority #3?", "unlinked and linked again")
	a.Keys("y")
	s := a.Screen()
	screentest.MustShow(t, s, "USDT wallet is now priority #3", "#1 USDC › #2 ETH › #3 USDT › #4 MATIC › #5 SOL")
	a.Keys("K", "y", "K", "y")
	a.MustShow(t, "#1 USDT › #2 USDC", "5 linked to the card (limit 5)")
}

func TestWithdrawChecksConfirmsAndShowsTx(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("w")
	a.MustShow(t, "Withdraw from the credit wallet", "0.45 USDC")
	a.Type("600")
	a.Keys("enter")
	a.MustShow(t, "insufficient balance: 500.00 USDC", "600 USDC requested")
	if a.Root.(*ui.Root).DialogOpen() {
		t.Fatal("a dialog for an amount the balance does not cover")
	}
	a.Keys("backspace", "backspace", "backspace")
	a.Type("0.3")
	a.Keys("enter")
	a.MustShow(t, "greater than the network fee")
	a.Keys("backspace", "backspace", "backspace")
	a.Type("100")
	a.Keys("enter")
	a.MustShow(t, "Withdraw 100 USDC?", `{"amount":"100"}`, "Network fee:  0.45 USDC", "Will arrive:  99.55 USDC")
	a.Keys("enter") // a second enter confirms only once
	s := a.Screen()
	screentest.MustShow(t, s, "Tx hash  0x", "400.00 USDC", "Arrives  99.55 USDC")
	w := a.Root.(*ui.Root).Active().(*Screen)
	label, v, ok := w.CopyValue()
	if !ok || label != "transaction hash" || len(v) != 66 {
		t.Fatalf("copy %q %q %v", label, v, ok)
	}
	// A second withdrawal while the first is in progress is refused: the
	// gateway's message shows and the form keeps the amount.
	a.Keys("w")
	a.Type("10")
	a.Keys("enter", "y")
	a.MustShow(t, "Another withdrawal is still in progress", "A withdrawal is already in progress", "Withdraw from the credit wallet")
	if got := openWithdrawForm(t, a).Value("amount"); got != "10" {
		t.Fatalf("the form lost the amount: %q", got)
	}
}

// The interface's rule, received = amount - fee: the whole balance can be
// requested, and what arrives is the balance less the fee.
func TestWithdrawTheWholeBalance(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("w")
	a.Type("500")
	a.MustShow(t, "will arrive: 499.55 USDC")
	a.Keys("enter")
	a.MustShow(t, "Withdraw 500 USDC?", "Will arrive:  499.55 USDC", "Credit balance after: 0.00 USDC")
	a.Keys("y")
	a.MustShow(t, "Tx hash  0x", "Arrives  499.55 USDC", "0.00 USDC")
}

// A fee estimation in another shape ({amount, fee, receiveAmount,
// maxAmount} for the whole balance) is read: its fee, never its receive
// amount for another amount. The estimation is asked again for the amount
// typed before the confirmation, which says what arrives of that amount.
func TestWithdrawWithAnEstimationInAnotherShape(t *testing.T) {
	a := screentest.New(t, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(New)), screentest.WithAltShapes(), screentest.WithSize(120, 40))
	a.SignIn("alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("w")
	a.MustShow(t, "Network fee", "0.45 USDC")
	a.MustNotShow(t, "could not be read")
	before := a.Sent("GET", "/v1/wallet/credit/withdraw-estimation")
	a.Type("100")
	a.Keys("enter")
	if a.Sent("GET", "/v1/wallet/credit/withdraw-estimation") != before+1 {
		t.Fatal("the estimation was not asked again for the amount typed")
	}
	s := a.Screen()
	screentest.MustShow(t, s, "Withdraw 100 USDC?", "Network fee:  0.45 USDC", "Will arrive:  99.55 USDC")
	screentest.MustNotShow(t, s, "499.55", "Receive amount")
	a.Keys("y")
	a.MustShow(t, "Tx hash   0x", "Received", "99.55", "Status", "submitted")
}

// Over the balance, the refusal names the amount and the fee together.
func TestWithdrawRefusalNamesAmountPlusFee(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("w")
	a.Type("600")
	a.Keys("enter")
	a.MustShow(t, "insufficient balance: 500.00 USDC available, 600 USDC requested plus the", "network fee of 0.45 USDC (600.45 USDC)")
}

func TestWithdrawNotAllowedIsCheckedFirst(t *testing.T) {
	a := newWalletApp(t, "bruno@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("w")
	// w is not offered: nothing typed is lost in a form that cannot send.
	a.MustNotShow(t, "Amount (USDC)")
	a.MustShow(t, "NOT WITHDRAWABLE", "No withdrawal: the credit wallet is not withdrawable")
}

func TestWalletHistoryPages(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("h")
	a.MustShow(t, "History", "page 1", "Café Lumière")
	a.Keys("n", "n")
	a.MustShow(t, "page 3")
	a.Keys("n")
	if !strings.Contains(a.Notice(), "last page") {
		t.Fatalf("notice %q", a.Notice())
	}
	a.Keys("c")
	a.MustShow(t, "Credit wallet", "Credit line opened")
	a.Keys("esc")
	a.MustShow(t, "Internal wallets")
}

func TestWalletsReadOnly(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test", screentest.ReadOnly())
	a.Open(screenkit.WalletsScreen)
	for _, k := range []string{"l", "u", "K", "w"} {
		a.Keys(k)
		if !strings.Contains(a.Notice(), "read-only") {
			t.Fatalf("%s in read-only: %q", k, a.Notice())
		}
	}
	screentest.MustNotShow(t, a.Footer(), "link to card", "withdraw credit")
}

// In the body of an 80x24 terminal (60x22) a wallet's link to the card
// stays on screen.
func TestWalletsFitAnEightyColumnTerminal(t *testing.T) {
	r := screentest.NewRig(t, "alice@demo.test", screentest.Of(New))
	r.W, r.H = 60, 22
	screentest.MustShow(t, r.View(), "linked #1")
}

// BenchmarkWalletsLoadWith200msLatency loads the wallets screen, which needs
// four gateway calls, from a gateway that takes 200 ms to answer each.
// The budget: about 200 ms (the calls run at once), not 800.
func BenchmarkWalletsLoadWith200msLatency(b *testing.B) {
	app := screentest.New(b, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(New)))
	app.SignIn("alice@demo.test")
	wallets := New(app.Deps)
	wallets.SetSize(120, 40)
	app.Server.SetFaults(sandbox.Faults{Latency: 200 * time.Millisecond})
	b.ResetTimer()
	for b.Loop() {
		// uitest.Run runs a batch's commands concurrently, as Bubble Tea does.
		msgs := uitest.Run(wallets.Enter())
		if len(msgs) != 4 {
			b.Fatalf("%d answers, want the 4 reads", len(msgs))
		}
		for _, m := range msgs {
			wallets.Update(m)
		}
	}
	b.StopTimer()
	screentest.MustShow(b, wallets.View(), "1 linked to the card (limit 5)", "500.00 USDC", "spendable")
}

// TestWalletsInAnotherShape: a gateway naming and nesting wallet fields its
// own way (holdings.available, deposit.address, funds.available, value,
// occurredAt) still shows every balance, address and date, and its
// balanceAsOf date and allowanceGranted flag under their own names.
func TestWalletsInAnotherShape(t *testing.T) {
	a := screentest.New(t, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(New)), screentest.WithAltShapes(), screentest.WithSize(140, 40))
	a.SignIn("alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	s := a.Screen()
	screentest.MustShow(t, s, "Holdings available", "1250.50", "Deposit address", "linked #1",
		"balance 320.00  allowance 150.00  spendable 150.00", "Balance      500.00 USDC", "Line status  open",
		// A date and a flag named like the balance and the allowance are
		// shown under their own names, never under those labels.
		"balance as of 2025-01-15 10:30 UTC  allowance granted true  delegated true")
	screentest.MustNotShow(t, s, "balance —", "balance 2025", "allowance true")
	w := a.Root.(*ui.Root).Active().(*Screen)
	if _, v, ok := w.CopyValue(); !ok || v == "" {
		t.Fatal("y has no wallet address to copy")
	}
	a.Keys("h")
	a.MustShow(t, "History", "Occurred at (UTC)", "Title", "Direction", "Card payment", "2025-")
	a.Keys("i")
	a.MustShow(t, "JSON as the gateway sent it", "history page 1", `"occurredAt"`, `"title": "Card payment`)
	a.Keys("esc")
	a.Keys("c")
	a.MustShow(t, "Credit line opened", "500.00 USDC", "2025-01-06 09:00")
	a.MustNotShow(t, "09:00 UTC") // the zone is in the column title
}

// TestWalletsOfferOnlyActionsThatCanWork: withdraw, link, unlink and the
// priority keys are left out of the footer where they cannot work, and a
// press says why.
func TestWalletsOfferOnlyActionsThatCanWork(t *testing.T) {
	cases := []struct {
		name, user, press, notice string
		footless                  []string
		offered                   []string
		body                      string
	}{
		{"no credit", "nora@demo.test", "w", "nothing to withdraw: there is no credit wallet yet", []string{"w withdraw"}, []string{"l link"}, "No credit yet"},
		{"nothing linked", "nora@demo.test", "u", "nothing to unlink: no wallet is linked to the card", []string{"u unlink", "K priority"}, nil, ""},
		{"no external wallet", "frank@demo.test", "w", "no external wallet to send it to", []string{"w withdraw"}, []string{"u unlink"}, "No withdrawal: there is no external wallet"},
		{"not withdrawable", "bruno@demo.test", "w", "the credit wallet is not withdrawable now", []string{"w withdraw"}, nil, "No withdrawal: the credit wallet is not withdrawable"},
		{"five linked", "lena@demo.test", "l", "cannot link another wallet: 5 of 5 are linked", []string{"l link"}, []string{"w withdraw"}, ""},
		{"unverified", "umar@demo.test", "w", "withdraw credit needs a VERIFIED identity", []string{"w withdraw", "l link"}, nil, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := newWalletApp(t, tc.user)
			a.Open(screenkit.WalletsScreen)
			if tc.body != "" {
				a.MustShow(t, tc.body)
			}
			a.MustRefuse(tc.press, tc.notice, tc.footless, tc.offered)
			a.MustNotShow(t, "Amount (USDC)", "Link the", "Unlink the")
		})
	}
	// alice can do all of it: withdraw opens its form.
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	screentest.MustShow(t, a.Footer(), "w withdraw")
	a.Keys("w")
	a.MustShow(t, "Amount (USDC)")
}

// At 80 columns the note about a missing external wallet wraps: it is
// read whole, not cut at the edge.
func TestWalletsNoExternalNoteWrapsAt80(t *testing.T) {
	a := newWalletApp(t, "nora@demo.test")
	a.Resize(80, 24)
	a.Open(screenkit.WalletsScreen)
	s := a.Screen()
	screentest.MustShow(t, s, "None registered.", "delegation first on the Delegation screen.")
	screentest.MustNotShow(t, s, "(6)") // a number typed into the text named Whitelist
}

// The reason a disabled key gives belongs to the screen it was pressed
// on: it is not shown on the next screen opened.
func TestDisabledKeyReasonStaysOnItsScreen(t *testing.T) {
	a := newWalletApp(t, "nora@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("w")
	a.MustShow(t, "nothing to withdraw")
	a.Open(screenkit.AccountScreen)
	a.MustNotShow(t, "nothing to withdraw")
}

// At 80 columns the table shortens addresses in the middle; the selected
// wallet's address is shown whole under it.
func TestSelectedWalletAddressShownWhole(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Resize(80, 24)
	a.Open(screenkit.WalletsScreen)
	a.MustShow(t, "0x1f8f4b7647dc…", "address 0x1f8f4b7647dc2046e8c61d9619aee2add185e4a5")
	a.Keys("down")
	a.MustShow(t, "address 0x3ca735f10886738adb9995de710fa697446cf920")
}
