package screens

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/apiclient/sandbox"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// newWalletApp is newTestApp with the wallets and whitelist screens, at
// 120x40, signed in as user.
func newWalletApp(t *testing.T, user string, readOnlyMode bool) *testApp {
	t.Helper()
	clock := sandbox.NewManualClock(testEpoch)
	server := sandbox.New(sandbox.Options{Clock: clock})
	hs := httptest.NewServer(server)
	t.Cleanup(hs.Close)
	cfg := apiclient.Config{BaseURL: hs.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey, Now: clock.Now}
	styles := theme.New(true, false)
	client := apiclient.New(cfg)
	deps := Deps{Client: client, Requests: ui.NewRequests(), Styles: &styles, Now: clock.Now, ReadOnly: readOnlyMode}
	root := ui.NewRoot(ui.RootOptions{
		Styles: &styles, Requests: deps.Requests, SignIn: NewSignIn(deps),
		Screens: []ui.Screen{NewAccount(deps), NewWallets(deps), NewWhitelist(deps)},
		Gateway: "SANDBOX", Sandbox: true, ReadOnly: readOnlyMode, Now: clock.Now,
		Session: func() (string, time.Time, bool) {
			s := client.Session()
			return s.Username, s.ExpiresAt, s.Valid()
		},
	})
	a := &testApp{t: t, root: root, deps: deps, clock: clock, server: server, client: client}
	a.drive(tea.WindowSizeMsg{Width: 120, Height: 40})
	a.drive(uitest.Run(root.Init())...)
	a.signIn(user)
	return a
}

// other signs in the same user on a second client, to change the server
// state behind the screen's back.
func (a *testApp) other(user string) *apiclient.Client {
	a.t.Helper()
	c := apiclient.New(a.client.Config())
	if _, err := c.Login(context.Background(), user, "demo-pass"); err != nil {
		a.t.Fatal(err)
	}
	return c
}

func (a *testApp) notice() string {
	n, _ := a.root.(*ui.Root).CurrentNotice()
	return n.Text
}

func TestWalletsOverview(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test", false)
	a.keys("4")
	s := a.screen()
	mustShow(t, s, "Internal wallets · 1 of 5 linked to the card", "1250.50", "linked #1", "ETH", "BTC",
		"balance 320.00", "allowance 150.00", "spendable 150.00", "500.00 USDC", "WITHDRAWABLE")
}

func TestWalletsNoCreditYet(t *testing.T) {
	a := newWalletApp(t, "nora@demo.test", false)
	a.keys("4")
	mustShow(t, a.screen(), "No credit yet", "0 of 5 linked", "None registered")
	a.keys("w")
	if !strings.Contains(a.notice(), "no credit wallet") {
		t.Fatalf("w without credit: %q", a.notice())
	}
}

func TestWalletsSixthLinkRefusedBeforeSending(t *testing.T) {
	a := newWalletApp(t, "lena@demo.test", false)
	a.keys("4")
	mustShow(t, a.screen(), "5 of 5 linked")
	a.keys("G", "l")
	mustShow(t, a.screen(), "Cannot link a sixth wallet: 5 of 5 are linked")
	// Unlink the first, then link it back: 4, then 5 of 5.
	a.keys("g", "u")
	mustShow(t, a.screen(), "4 of 5 linked", "USDC wallet unlinked")
	a.keys("l")
	mustShow(t, a.screen(), "5 of 5 linked", "linked #5")
}

func TestWalletsGatewayRefusalShown(t *testing.T) {
	a := newWalletApp(t, "lena@demo.test", false)
	a.keys("4", "u") // 4 of 5
	mustShow(t, a.screen(), "4 of 5 linked")
	// Someone links the sixth elsewhere; the screen still believes 4.
	other := a.other("lena@demo.test")
	in, _ := other.InternalWallets(context.Background())
	if err := other.LinkWallet(context.Background(), in[5].AddressID); err != nil {
		t.Fatal(err)
	}
	a.keys("l")
	mustShow(t, a.screen(), "The gateway refused the link: A maximum of 5 wallets can be linked", "5 of 5 linked")
}

func TestWalletsPriorityMove(t *testing.T) {
	a := newWalletApp(t, "lena@demo.test", false)
	a.keys("4", "j", "J") // USDT from #2 to #3
	s := a.screen()
	mustShow(t, s, "USDT wallet is now priority #3", "#1 USDC › #2 ETH › #3 USDT › #4 MATIC › #5 SOL")
	a.keys("K", "K")
	mustShow(t, a.screen(), "#1 USDT › #2 USDC")
}

func TestWithdrawChecksConfirmsAndShowsTx(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test", false)
	a.keys("4", "w")
	mustShow(t, a.screen(), "Withdraw from the credit wallet", "0.45 USDC")
	a.typeText("600")
	a.keys("enter")
	mustShow(t, a.screen(), "insufficient balance: 500.00 USDC available, amount plus fee is 600.45 USDC")
	if a.root.(*ui.Root).DialogOpen() {
		t.Fatal("a dialog for an amount the balance does not cover")
	}
	a.keys("backspace", "backspace", "backspace")
	a.typeText("0.3")
	a.keys("enter")
	mustShow(t, a.screen(), "greater than the network fee")
	a.keys("backspace", "backspace", "backspace")
	a.typeText("100")
	a.keys("enter")
	mustShow(t, a.screen(), "Withdraw 100 USDC?", `{"amount":"100"}`, "Network fee:  0.45 USDC", "Will arrive:  99.55 USDC")
	a.keys("enter") // a second enter confirms only once
	s := a.screen()
	mustShow(t, s, "Tx hash  0x", "400.00 USDC", "Arrives  99.55 USDC")
	w := a.root.(*ui.Root).Active().(*Wallets)
	label, v, ok := w.CopyValue()
	if !ok || label != "transaction hash" || len(v) != 66 {
		t.Fatalf("copy %q %q %v", label, v, ok)
	}
	// A second withdrawal while the first is in progress is refused.
	a.keys("w")
	a.typeText("10")
	a.keys("enter", "y")
	mustShow(t, a.screen(), "Another withdrawal is still in progress")
}

func TestWithdrawNotAllowedIsCheckedFirst(t *testing.T) {
	a := newWalletApp(t, "bruno@demo.test", false)
	a.keys("4", "w")
	a.typeText("10")
	a.keys("enter")
	mustShow(t, a.screen(), "withdrawal not allowed")
}

func TestWalletHistoryPages(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test", false)
	a.keys("4", "h")
	mustShow(t, a.screen(), "History", "page 1", "Café Lumière")
	a.keys("n", "n")
	mustShow(t, a.screen(), "page 3")
	a.keys("n")
	if !strings.Contains(a.notice(), "last page") {
		t.Fatalf("notice %q", a.notice())
	}
	a.keys("c")
	mustShow(t, a.screen(), "Credit wallet", "Credit line opened")
	a.keys("esc")
	mustShow(t, a.screen(), "Internal wallets")
}

func TestWalletsReadOnly(t *testing.T) {
	a := newWalletApp(t, "alice@demo.test", true)
	a.keys("4")
	for _, k := range []string{"l", "u", "K", "w"} {
		a.keys(k)
		if !strings.Contains(a.notice(), "read-only") {
			t.Fatalf("%s in read-only: %q", k, a.notice())
		}
	}
	mustNotShow(t, a.screen(), "link to card", "withdraw credit")
}
