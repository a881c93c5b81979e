package apiclient_test

import (
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

const delegationAddr = "0x52908400098527886E0F7030069857D2E4169EE7"

// TestDelegationJourneyOnSandbox: token with gas, chain configuration, then
// the post-approval that registers the external wallet and uses the token.
func TestDelegationJourneyOnSandbox(t *testing.T) {
	g, c := signedIn(t, "nora@demo.test")
	tok, err := c.DelegationToken(bg, apiclient.DelegationTokenRequest{Faucet: true, Address: delegationAddr, Network: "linea"})
	if err != nil || tok.Status != 200 || tok.FaucetFailed() || tok.Faucet.Status != apiclient.FaucetConfirmed || tok.Faucet.TransactionHash == "" {
		t.Fatalf("token %+v %v", tok, err)
	}
	again, err := c.DelegationToken(bg, apiclient.DelegationTokenRequest{Faucet: true, Address: delegationAddr, Network: "base"})
	if err != nil || again.Status != 207 || !again.FaucetFailed() || again.Faucet.TransactionHash != tok.Faucet.TransactionHash {
		t.Fatalf("second faucet %+v %+v %v", again, again.Faucet, err)
	}

	cc, err := c.ChainConfig(bg, "linea")
	if err != nil || cc.Count != 1 || cc.Networks[0].Tokens["usdc"].Decimals != 6 {
		t.Fatalf("config %+v %v", cc, err)
	}
	if _, err := c.ChainConfig(bg, "base"); !apiclient.IsSettingError(err) {
		t.Fatalf("undocumented network: %v", err)
	}

	req := apiclient.PostApprovalRequest{Address: delegationAddr, Network: "linea", Currency: "usdc", Amount: "75",
		TxHash: "0x" + strings.Repeat("1f", 32), SigHash: "0x" + strings.Repeat("2e", 65), SigMessage: "approve 75 USDC",
		Token: tok.Token, Nonce: tok.Nonce}
	if err := c.PostApproval(bg, apiclient.ChainOf(req.Network), req); err != nil {
		t.Fatal(err)
	}
	ext, err := c.ExternalWallets(bg)
	if err != nil || len(ext) != 1 || ext[0].Address != delegationAddr || ext[0].Allowance != "75" {
		t.Fatalf("external %+v %v", ext, err)
	}
	if err := c.PostApproval(bg, apiclient.ChainEVM, req); !apiclient.IsStatus(err, 400) {
		t.Fatalf("reused token: %v", err)
	}
	// The other token expires after about 10 minutes.
	req.Token, req.Nonce = again.Token, again.Nonce
	g.clock.Advance(apiclient.DelegationTokenLifetime*time.Second + time.Second)
	if err := c.PostApproval(bg, apiclient.ChainEVM, req); !apiclient.IsStatus(err, 400) || !strings.Contains(err.Error(), "expired") {
		t.Fatalf("expired token: %v", err)
	}
}

func TestDelegationUSAndUnverified(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	us := g.client(func(c *apiclient.Config) { c.US = true })
	login(t, us, "sam@demo.test")
	cc, err := us.ChainConfig(bg, "")
	if err != nil || cc.Count != 3 || !strings.Contains(cc.Links.Self, "region=us") {
		t.Fatalf("US config %+v %v", cc, err)
	}
	if _, err := us.ChainConfig(bg, "etherlink"); !apiclient.IsNotFound(err) {
		t.Fatalf("etherlink in the US: %v", err)
	}
	umar := g.client()
	login(t, umar, "umar@demo.test")
	if _, err := umar.DelegationToken(bg, apiclient.DelegationTokenRequest{}); !apiclient.IsStatus(err, 403) {
		t.Fatalf("unverified: %v", err)
	}
}
