package wallets

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui/uitest"
)

// openWithdrawLayer is the withdrawal's layer, which must be on top.
func openWithdrawLayer(t *testing.T, a *screentest.App) *withdrawLayer {
	t.Helper()
	top, _ := a.UI().TopLayer()
	l, ok := top.(*withdrawLayer)
	if !ok {
		t.Fatalf("the withdrawal form is not on top: %T\n%s", top, a.Screen())
	}
	return l
}

// esc over the form closes it and cancels the estimation on its way, and
// only that: the screen's reads in flight go on and are shown.
func TestWithdrawEscCancelsTheEstimationOnly(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	_, reads := a.Root.Update(uitest.Key("r"))
	reading := a.Deps.Requests.InFlightFor(screenkit.WalletsScreen)
	_, estimation := a.Root.Update(uitest.Key("w"))
	openWithdrawLayer(t, a)
	if n := a.Deps.Requests.InFlightFor(screenkit.WalletsScreen); n != reading+1 {
		t.Fatalf("%d requests in flight with the form open, want the %d reads and the estimation", n, reading)
	}
	a.Keys("esc")
	if top, open := a.UI().TopLayer(); open {
		t.Fatalf("esc left %T open", top)
	}
	if n := a.Deps.Requests.InFlightFor(screenkit.WalletsScreen); n != reading {
		t.Fatalf("esc left %d requests in flight, want the %d reads", n, reading)
	}
	a.Drive(uitest.Run(tea.Batch(reads, estimation))...)
	a.MustShow(t, "Internal wallets", "500.00 USDC", "WITHDRAWABLE")
	a.MustNotShow(t, "cancel", "withdrawal fee")
}

// A submitted amount waits for its estimation (the form busy) from a
// gateway that estimates for an amount; esc then closes the form and
// stops that estimation.
func TestWithdrawEscWhileWaitingForTheFee(t *testing.T) {
	a := screentest.New(t, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(New)), screentest.WithAltShapes(), screentest.WithSize(120, 40))
	a.SignIn("alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("w")
	a.Type("100")
	_, estimation := a.Root.Update(uitest.Key("enter"))
	l := openWithdrawLayer(t, a)
	if !l.Form.Busy() || !strings.Contains(a.Screen(), "sending… (esc cancels)") {
		t.Fatalf("the form does not wait for the fee of 100:\n%s", a.Screen())
	}
	a.Keys("esc")
	if top, open := a.UI().TopLayer(); open {
		t.Fatalf("esc left %T open", top)
	}
	if n := a.Deps.Requests.InFlightFor(screenkit.WalletsScreen); n != 0 {
		t.Fatalf("esc left %d requests in flight", n)
	}
	a.Drive(uitest.Run(estimation)...)
	if a.UI().DialogOpen() {
		t.Fatal("the cancelled estimation opened the confirmation")
	}
}

// While the withdrawal is on its way no key does anything, esc included:
// the form stays with its amount, and the outcome is told.
func TestWithdrawOnItsWayIsNeverAbandoned(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("w")
	a.Type("100")
	a.Keys("enter")
	a.MustShow(t, "Withdraw 100 USDC?")
	_, confirmed := a.Root.Update(uitest.Key("y"))
	var sending []tea.Msg
	for _, msg := range uitest.Run(confirmed) {
		_, send := a.Root.Update(msg)
		sending = append(sending, uitest.Run(send)...)
	}
	a.MustShow(t, "Sending the withdrawal…")
	a.Keys("esc", "backspace")
	l := openWithdrawLayer(t, a)
	if got := l.Form.Value("amount"); got != "100" {
		t.Fatalf("keys changed the amount on its way: %q", got)
	}
	a.Drive(sending...)
	if top, open := a.UI().TopLayer(); open {
		t.Fatalf("the withdrawal is done and %T is still open", top)
	}
	a.MustShow(t, "withdrawal sent: tx 0x", "Tx hash  0x", "400.00 USDC")
}

// A pause in typing asks the estimation for the amount typed; an older
// pause (a key came since) asks nothing.
func TestWithdrawEstimatesAfterAPauseInTyping(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("w")
	l := openWithdrawLayer(t, a)
	a.Type("250")
	before := a.Sent("GET", "/v1/wallet/credit/withdraw-estimation")
	a.Drive(estimateTypedMsg{typed: l.typed - 1})
	if a.Sent("GET", "/v1/wallet/credit/withdraw-estimation") != before {
		t.Fatal("a pause a key came after asked the estimation")
	}
	a.Drive(estimateTypedMsg{typed: l.typed})
	if a.Sent("GET", "/v1/wallet/credit/withdraw-estimation") != before+1 || l.estFor != "250" {
		t.Fatalf("the pause did not ask the estimation for 250 (for %q)", l.estFor)
	}
	a.MustShow(t, "will arrive: 249.55 USDC")
	if title, _, ok := l.Inspect(); !ok || title != "withdrawal fee estimation" {
		t.Fatalf("the form inspects %q (%v), not the estimation", title, ok)
	}
}

// An amount that is refused shows why and no arrival estimate under it:
// over the balance (the client's check) and refused by the gateway (a
// withdrawal still in progress). The form keeps its error until the
// amount is sent again, so the estimate stays away till then.
func TestWithdrawRefusedAmountShowsNoArrivalEstimate(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test")
	a.Open(screenkit.WalletsScreen)
	a.Keys("w")
	a.Type("600")
	a.Keys("enter")
	s := a.Screen()
	screentest.MustShow(t, s, "insufficient balance: 500.00 USDC", "600 USDC requested")
	screentest.MustNotShow(t, s, "will arrive")
	a.Keys("backspace", "backspace", "backspace")
	a.Type("100")
	a.Keys("enter")
	a.MustShow(t, "Withdraw 100 USDC?", "Will arrive:  99.55 USDC")
	a.Keys("y")
	a.MustShow(t, "Tx hash  0x")

	a.Keys("w")
	a.Type("10")
	a.MustShow(t, "will arrive: 9.55 USDC")
	a.Keys("enter", "y")
	s = a.Screen()
	screentest.MustShow(t, s, "Another withdrawal is still in progress", "Withdraw from the credit wallet")
	screentest.MustNotShow(t, s, "will arrive")
}
