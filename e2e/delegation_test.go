package e2e

import (
	"strings"
	"testing"
)

// faucet already, sees the 207 explained; the chain configuration browses.
func TestDelegationFaucetAndChainConfig(t *testing.T) {
	const addr = "0x52908400098527886E0F7030069857D2E4169EE7"
	tm := startTerm(t, nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Delegation")
	tm.waitFor("Delegation lets a non-custodial wallet pay with the card")
	tm.send("t")
	tm.waitFor("Request a delegation token", "Network", "linea")
	tm.send("Tab", "Tab") // the form opens with no field chosen: to the network, then the address
	tm.typeText(addr)
	tm.send("Enter") // enter on the last field sends
	tm.waitFor("Request a delegation token with gas?", "faucet=true&network=linea")
	tm.send("y")
	s := tm.waitFor("CONFIRMED", "200 OK", "dlgt_", "(secret; y copies it)", "valid for")
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "dlgt_"); i >= 0 {
			if rest := []rune(line[i:]); len(rest) < 7 || rest[6] != '…' {
				t.Fatalf("the token is not masked: %q", line)
			}
		}
	}
	tm.send("c")
	tm.waitFor("Chain configuration", "4 networks", "etherlink", "59141")
	tm.send("j", "Enter")
	tm.waitFor("Decimals", "Contract", "musd", "usdt")
	tm.send("Escape")
	tm.waitFor("enter tokens · n one network")
	tm.send("Escape")
	tm.waitFor("Registered external wallets")

	tm.confirm("S", "Sign out?")
	signInAs(tm, "faye@demo.test")
	tm.open("Delegation")
	tm.send("t", "Tab", "Tab")
	tm.typeText(addr)
	tm.confirm("Enter", "Request a delegation token with gas?")
	tm.waitFor("207 Multi-Status", "DECLINED", "Token issued; the faucet did not pay", "already received")
}
