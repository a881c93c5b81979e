package screens

import (
	"strings"
	"testing"
	"time"

	"cardterm/ui"
)

const (
	dlgTestAddr = "0x52908400098527886E0F7030069857D2E4169EE7"
	dlgTestTx   = "0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f"
)

// newDlgApp signs user in with the delegation screen mounted and open; it
// returns the screen too, so tests can check what never reaches the view.
func newDlgApp(t *testing.T, user string, opts ...appOption) (*testApp, *Delegation) {
	t.Helper()
	var dl *Delegation
	opts = append(opts, withScreen(func(d Deps) *Delegation { dl = NewDelegation(d); return dl }))
	a := newTestApp(t, opts...)
	a.signIn(user)
	a.keys("6")
	return a, dl
}

// requestFaucetToken opens the token form, leaves the faucet on, picks the
// network by pressing space n times and types the address.
func (a *testApp) requestFaucetToken(spaces int, address string) {
	a.t.Helper()
	a.keys("t", "tab")
	for range spaces {
		a.keys("space")
	}
	a.keys("tab", "ctrl+u")
	a.typeText(address)
	a.keys("enter")
}

func TestDelegationTokenWithFaucetConfirmed(t *testing.T) {
	a, dl := newDlgApp(t, "alice@demo.test")
	mustShow(t, a.screen(), "Delegation lets a non-custodial wallet pay with the card", "USDC on linea · allowance 150.00")
	a.requestFaucetToken(0, dlgTestAddr)
	s := a.screen()
	mustShow(t, s, "Request a delegation token with gas?", "/v1/delegation/token?address="+dlgTestAddr+"&", "faucet=true&network=linea", "once per user")
	a.keys("y")
	s = a.screen()
	tok := dl.last.tok.Token
	mustShow(t, s, "Delegation token", tok[:6]+"…", dl.last.tok.Nonce, "valid for 10:00", "200 OK", "CONFIRMED", "linea", dl.last.tok.Faucet.TransactionHash[:20])
	mustNotShow(t, s, tok, "did not pay")
	if label, v, ok := dl.CopyValue(); !ok || v != tok || label != "delegation token" {
		t.Fatalf("y copies %q %q", label, v)
	}
	a.keys("j", "j")
	if label, v, _ := dl.CopyValue(); v != dl.last.tok.Faucet.TransactionHash || label != "faucet transaction hash" {
		t.Fatalf("y copies %q %q", label, v)
	}
	a.keys("y")
	if n, _ := a.root.(*ui.Root).CurrentNotice(); n.Text != "copied faucet transaction hash" {
		t.Fatalf("notice %q", n.Text)
	}
	a.clock.Advance(61 * time.Second)
	mustShow(t, a.screen(), "valid for 8:59")
	a.clock.Advance(10 * time.Minute)
	mustShow(t, a.screen(), "expired: t requests a new one")
}

func TestDelegationFayeAlreadyReceived(t *testing.T) {
	a, _ := newDlgApp(t, "faye@demo.test")
	a.requestFaucetToken(2, dlgTestAddr) // base
	a.keys("y")
	s := a.screen()
	mustShow(t, s, "207 Multi-Status", "DECLINED", "already received", "Token issued; the faucet did not pay", "The token is usable all the")
}

func TestDelegationAddressCheckedBeforeSending(t *testing.T) {
	a, dl := newDlgApp(t, "alice@demo.test")
	a.requestFaucetToken(0, "0x123")
	mustShow(t, a.screen(), "✗ invalid address format: linea needs 0x followed by 40 hex digits")
	if a.root.(*ui.Root).DialogOpen() || dl.last != nil {
		t.Fatal("an invalid address was sent")
	}
	// solana wants base58: the EVM address is refused there.
	a.keys("esc")
	a.requestFaucetToken(1, dlgTestAddr)
	mustShow(t, a.screen(), "solana needs a base58 public key", "0x5290")
	// Faucet off: no address needed, no confirmation.
	a.keys("shift+tab", "shift+tab", "space", "enter")
	mustShow(t, a.screen(), "Delegation token", "200 OK")
	mustNotShow(t, a.screen(), "Gas faucet")
}

func TestDelegationChainConfigBrowser(t *testing.T) {
	a, dl := newDlgApp(t, "alice@demo.test")
	a.keys("c")
	s := a.screen()
	mustShow(t, s, "Chain configuration", "ALL NETWORKS", "4 networks", "ethereum", "linea", "solana", "etherlink", "11155111", "staging")
	a.golden("chain_config")
	a.keys("j", "enter")
	s = a.screen()
	mustShow(t, s, "Tokens", "musd", "usdc", "usdt", "59141")
	if label, v, ok := dl.CopyValue(); !ok || !strings.HasPrefix(v, "0x") || label != "musd token address" {
		t.Fatalf("y copies %q %q", label, v)
	}
	a.keys("esc", "n")
	mustShow(t, a.screen(), "NETWORK ETHEREUM", "1 network")
	a.keys("esc")
	mustShow(t, a.screen(), "Registered external wallets")
}

func TestDelegationChainConfigUS404(t *testing.T) {
	a, _ := newDlgApp(t, "sam@demo.test", withUS())
	a.keys("c")
	mustShow(t, a.screen(), "3 networks")
	mustNotShow(t, a.screen(), "etherlink")
	a.keys("n", "n", "n", "n") // etherlink
	mustShow(t, a.screen(), "NETWORK ETHERLINK", "No network matches", "No networks found")
}

func TestDelegationPostApprovalRegistersWallet(t *testing.T) {
	a, dl := newDlgApp(t, "nora@demo.test")
	a.keys("t", "space", "enter") // faucet off
	tok := dl.last.tok.Token
	a.keys("a")
	mustShow(t, a.screen(), "Post-approval", "EVM", tok[:6]+"…", "(secret, masked)", dl.last.tok.Nonce)
	// Network, currency prefilled: go to amount.
	a.keys("tab", "tab")
	a.typeText("1,5")
	a.keys("tab", "ctrl+u")
	a.typeText(dlgTestAddr)
	a.keys("tab")
	a.typeText("0xabc")
	a.keys("ctrl+s")
	s := a.screen()
	mustShow(t, s, "Fix the marked fields", "✗ amount must use a dot", "✗ transaction hash must be 0x followed by 64 hex digits", "✗ signature must be", "✗ signed message is required")
	if a.root.(*ui.Root).DialogOpen() {
		t.Fatal("an invalid post-approval reached the confirmation")
	}
	// The focus went to the amount.
	a.keys("ctrl+u")
	a.typeText("150.00")
	a.keys("tab", "tab", "ctrl+u")
	a.typeText(dlgTestTx)
	a.keys("tab")
	a.typeText("0x" + strings.Repeat("ab", 65))
	a.keys("tab")
	a.typeText("I approve 150 USDC")
	a.keys("ctrl+s")
	s = a.screen()
	mustShow(t, s, "Send the post-approval?", "POST /v1/delegation/evm/post-approval", "amount: 150.00", "token: "+tok[:6]+"… (masked)")
	mustNotShow(t, s, tok)
	a.keys("y")
	s = a.screen()
	mustShow(t, s, "delegation registered", dlgTestAddr, "USDC on linea · allowance 150.00", "used by the post-approval")
	// The used token is not offered again.
	a.keys("a")
	mustShow(t, a.screen(), "No unused delegation token")
	a.keys("esc")
}

func TestDelegationPostApprovalRefusalKeepsValues(t *testing.T) {
	a, dl := newDlgApp(t, "alice@demo.test")
	a.keys("t", "space", "enter")
	a.keys("a", "tab", "tab")
	a.typeText("10")
	a.keys("tab", "ctrl+u")
	a.typeText(dlgTestAddr)
	a.keys("tab")
	a.typeText(dlgTestTx)
	a.keys("tab")
	a.typeText(dlgTestTx)
	a.keys("tab")
	a.typeText("approve")
	a.keys("tab", "tab", "ctrl+u")
	a.typeText("not-the-nonce")
	a.keys("ctrl+s", "y")
	s := a.screen()
	mustShow(t, s, "The gateway refused: Nonce does not match the delegation token", "not-the-nonce", "approve")
	if dl.last.used {
		t.Fatal("a refused post-approval marked the token used")
	}
}

func TestDelegationReadOnly(t *testing.T) {
	a, dl := newDlgApp(t, "alice@demo.test", readOnly())
	a.keys("t")
	if n, _ := a.root.(*ui.Root).CurrentNotice(); !strings.Contains(n.Text, "read-only mode") || dl.form != nil {
		t.Fatalf("t in read-only mode: notice %q", n.Text)
	}
	a.keys("a")
	if dl.appr != nil {
		t.Fatal("a opened the post-approval form in read-only mode")
	}
	for _, b := range dl.KeyMap().ShortHelp() {
		if (b.Help().Key == "t" || b.Help().Key == "a") && b.Enabled() {
			t.Fatalf("%s is enabled in read-only mode", b.Help().Key)
		}
	}
	a.keys("c")
	mustShow(t, a.screen(), "4 networks")
}

func TestDelegationUnverified(t *testing.T) {
	a, _ := newDlgApp(t, "umar@demo.test")
	mustShow(t, a.screen(), "verification required")
	a.keys("t", "space", "enter")
	if n, _ := a.root.(*ui.Root).CurrentNotice(); !strings.Contains(n.Text, "Not authorized") {
		t.Fatalf("notice %q", n.Text)
	}
}

func TestDelegationIntroGolden(t *testing.T) {
	a, _ := newDlgApp(t, "alice@demo.test")
	a.golden("intro")
}

func TestDelegationSignOutForgetsToken(t *testing.T) {
	a, dl := newDlgApp(t, "alice@demo.test")
	a.keys("t", "space", "enter")
	if dl.last == nil {
		t.Fatal("no token")
	}
	a.drive(ui.SignedOutMsg{})
	if dl.last != nil {
		t.Fatal("the token survived the sign-out")
	}
}

func TestDelegationPendingFaucetShowsMessage(t *testing.T) {
	a, _ := newDlgApp(t, "frank@demo.test")
	a.requestFaucetToken(0, "0x8617E340B3D01FA5F11F306F4090FD50E2380700") // ends in 0: pending
	a.keys("y")
	mustShow(t, a.screen(), "200 OK", "PENDING", "not confirmed after 10 seconds")
	mustNotShow(t, a.screen(), "did not pay")
}
