package delegation

import (
	"strings"
	"testing"

	"cardterm/screens/screentest"
)

func TestDelegationChainConfigBrowser(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test")
	app.Keys("c")
	app.MustShow(t, "Chain configuration", "ALL NETWORKS", "4 networks", "ethereum", "linea", "solana", "etherlink", "11155111", "staging")
	app.Golden("chain_config")
	app.Keys("j", "enter")
	app.MustShow(t, "Tokens", "musd", "usdc", "usdt", "59141")
	chain, _ := app.UI().TopLayer()
	if label, v, ok := chain.(*chainBrowser).CopyValue(); !ok || !strings.HasPrefix(v, "0x") || label != "musd token address" {
		t.Fatalf("y copies %q %q", label, v)
	}
	for _, b := range chain.KeyMap().ShortHelp() {
		if k := b.Help().Key; k == "enter" || k == "n" {
			t.Fatalf("a network's tokens offer %q, which does nothing there", k)
		}
	}
	app.Keys("esc", "n")
	app.MustShow(t, "NETWORK ETHEREUM", "1 network")
	app.Keys("esc")
	app.MustShow(t, "Registered external wallets")
}

func TestDelegationChainConfigUS404(t *testing.T) {
	app, _ := newApp(t, "sam@demo.test", screentest.WithUS())
	app.Keys("c")
	app.MustShow(t, "3 networks")
	app.MustNotShow(t, "etherlink")
	app.Keys("n", "n", "n", "n") // etherlink
	app.MustShow(t, "NETWORK ETHERLINK", "No network matches", "No networks found")
}

// The tables are sized in SetSize: after a resize while the browser is
// open, the tokens table takes the room the network's fields leave, its
// footer stays on screen and the cursor scrolls within it; going back to
// a size draws the same frame.
func TestDelegationChainConfigResizes(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test")
	app.Keys("c", "j", "enter")
	frame := app.Screen()
	app.Resize(140, 13)
	small := app.Screen()
	screentest.MustShow(t, small, "Tokens", "musd", "row 1 of 3")
	screentest.MustNotShow(t, small, "usdt")
	if n := strings.Count(small, "\n") + 1; n != 13 {
		t.Fatalf("the frame is %d lines high:\n%s", n, small)
	}
	app.Resize(104, 30)
	if again := app.Screen(); again != frame {
		t.Fatalf("the same size draws differently:\n%s\n---\n%s", frame, again)
	}
	app.Resize(140, 13)
	app.Keys("j", "j")
	app.MustShow(t, "usdt", "row 3 of 3")
}

// Solana's fields, which the interface does not show, are listed as the
// gateway sent them, and i shows the network's JSON.
func TestDelegationChainConfigSolanaFieldsInAnotherShape(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test", screentest.WithAltShapes())
	app.Keys("c", "j", "j", "enter")
	app.MustShow(t, "solana", "Cluster", "devnet", "Program id", "Rpc endpoint", "Commitment")
	app.Keys("i")
	app.MustShow(t, "JSON as the gateway sent it", "solana chain configuration", `"cluster": "devnet"`)
}

// The registered external wallets read the gateway's own field names where
// the client's are empty: in the other gateway's shapes the line still
// names the address, currency, network and allowance (it was blank).
func TestDelegationExternalWalletsInOtherShapes(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test", screentest.WithAltShapes())
	app.MustShow(t, "Registered external wallets",
		"0xe50bd5087bb43fa125be57b42136d68d11ca9aa9", "USDC on linea · allowance 150")
}
