package sandbox

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

const (
	tEVM        = "0x52908400098527886E0F7030069857D2E4169EE7"
	tEVMPending = "0x8617E340B3D01FA5F11F306F4090FD50E2380700"
	tEVMDead    = "0x000000000000000000000000000000000000dEaD"
	tEVMBad     = "0x0000000000000000000000000000000000000BAD"
)

// tSolana is a valid Solana public key (base58 of 32 bytes).
var tSolana = delegationSolanaKey("test", "solana")

// faucetOf reads the faucet object of a token answer.
func faucetOf(r resp) map[string]any { f, _ := r.JSON["faucet"].(map[string]any); return f }

func tokenPath(q string) string { return "/v1/delegation/token" + q }

func TestDelegationTokenWithoutFaucet(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	r := e.do("GET", tokenPath(""), bearer(alice), nil)
	want(t, r, 200, "")
	if r.str("token") == "" || r.str("nonce") == "" || r.JSON["faucet"] != nil {
		t.Fatalf("token answer: %s", r.Raw)
	}
	r2 := e.do("GET", tokenPath(""), bearer(alice), nil)
	if r2.str("token") == r.str("token") || r2.str("nonce") == r.str("nonce") {
		t.Fatal("two requests gave the same token or nonce")
	}
}

func TestFaucetOutcomesFollowTheAddress(t *testing.T) {
	cases := []struct {
		user, network, address string
		status                 int
		success                bool
		fstatus                string
		hasTx, hasMsg, hasErr  bool
	}{
		{"alice@demo.test", "linea", tEVM, 200, true, "confirmed", true, false, false},
		{"frank@demo.test", "base", tEVMPending, 200, true, "pending", false, true, false},
		{"bruno@demo.test", "linea", tEVMDead, 207, false, "declined", false, false, true},
		{"nora@demo.test", "linea", tEVMBad, 207, false, "", false, false, true},
		{"lena@demo.test", "solana", tSolana, 200, true, "confirmed", true, false, false},
	}
	e := newEnv(t, Options{})
	for _, c := range cases {
		tok, _ := e.login(c.user)
		r := e.do("GET", tokenPath("?faucet=true&network="+c.network+"&address="+c.address), bearer(tok), nil)
		want(t, r, c.status, "")
		f := faucetOf(r)
		_, hasStatus := f["status"]
		if f["success"] != c.success || (c.fstatus == "" && hasStatus) || (c.fstatus != "" && f["status"] != c.fstatus) ||
			(f["transactionHash"] != nil) != c.hasTx || (f["message"] != nil) != c.hasMsg || (f["error"] != nil) != c.hasErr ||
			f["network"] != c.network || r.str("token") == "" {
			t.Errorf("%s %s: %s", c.user, c.address, r.Raw)
		}
	}
}

func TestFaucetTxHashIsDeterministicPerChain(t *testing.T) {
	a, b := newEnv(t, Options{}), newEnv(t, Options{})
	ta, _ := a.login("alice@demo.test")
	tb, _ := b.login("alice@demo.test")
	ra := a.do("GET", tokenPath("?faucet=true&network=linea&address="+tEVM), bearer(ta), nil)
	rb := b.do("GET", tokenPath("?faucet=true&network=linea&address="+tEVM), bearer(tb), nil)
	ha, _ := faucetOf(ra)["transactionHash"].(string)
	if ha == "" || ha != faucetOf(rb)["transactionHash"] || len(ha) != 66 {
		t.Fatalf("tx hashes %q and %v", ha, faucetOf(rb)["transactionHash"])
	}
	lena, _ := a.login("lena@demo.test")
	rs := a.do("GET", tokenPath("?faucet=true&network=solana&address="+tSolana), bearer(lena), nil)
	sig, _ := faucetOf(rs)["transactionHash"].(string)
	if b, ok := delegationBase58Decode(sig); !ok || len(b) != 64 {
		t.Fatalf("solana tx %q is not a base58 64-byte signature", sig)
	}
}

func TestFaucetOncePerUserAcrossNetworks(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	// A declined request grants nothing.
	want(t, e.do("GET", tokenPath("?faucet=true&network=linea&address="+tEVMDead), bearer(alice), nil), 207, "")
	first := e.do("GET", tokenPath("?faucet=true&network=linea&address="+tEVM), bearer(alice), nil)
	want(t, first, 200, "")
	again := e.do("GET", tokenPath("?faucet=true&network=solana&address="+tSolana), bearer(alice), nil)
	want(t, again, 207, "")
	f := faucetOf(again)
	if f["success"] != false || f["network"] != "linea" || f["transactionHash"] != faucetOf(first)["transactionHash"] ||
		!strings.Contains(f["error"].(string), "already") || again.str("token") == "" {
		t.Fatalf("second faucet: %s", again.Raw)
	}
}

func TestFayeAlreadyReceived(t *testing.T) {
	e := newEnv(t, Options{})
	faye, _ := e.login("faye@demo.test")
	r := e.do("GET", tokenPath("?faucet=true&network=base&address="+tEVM), bearer(faye), nil)
	want(t, r, 207, "")
	f := faucetOf(r)
	tx, _ := f["transactionHash"].(string)
	if f["success"] != false || f["network"] != "linea" || len(tx) != 66 || !strings.Contains(f["error"].(string), "already") {
		t.Fatalf("faye: %s", r.Raw)
	}
}

func TestDelegationTokenValidation(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	for _, q := range []string{
		"?faucet=true",
		"?faucet=true&network=linea",
		"?faucet=true&address=" + tEVM,
		"?faucet=true&network=polygon&address=" + tEVM,
		"?faucet=true&network=solana&address=" + tEVM,
		"?faucet=true&network=linea&address=" + tSolana,
		"?faucet=true&network=linea&address=0x123",
		"?faucet=maybe",
	} {
		r := e.do("GET", tokenPath(q), bearer(alice), nil)
		if r.Status != 422 || r.str("message") == "" {
			t.Errorf("%s: %d %s, want 422 {message}", q, r.Status, r.Raw)
		}
	}
	umar, _ := e.login("umar@demo.test")
	want(t, e.do("GET", tokenPath(""), bearer(umar), nil), 403, "Not authorized")
	want(t, e.do("GET", tokenPath(""), ck(), nil), 401, "Not authenticated")
}

// TestPendingFaucetPollsTenSecondsOnTheWallClock checks that on the real
// clock the pending answer waits the faucet's polling, and that a client
// that gives up is granted nothing.
func TestPendingFaucetPollsTenSecondsOnTheWallClock(t *testing.T) {
	s := New(Options{}) // the wall clock
	ts := httptest.NewServer(s)
	defer ts.Close()
	e := &env{t: t, ts: ts, s: s}
	alice, _ := e.login("alice@demo.test")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+tokenPath("?faucet=true&network=linea&address="+tEVMPending), nil)
	req.Header = bearer(alice)
	start := time.Now()
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("the pending faucet answered before its 10 s of polling")
	}
	if time.Since(start) > 2*time.Second {
		t.Fatal("the cancelled request was not abandoned promptly")
	}
	// Nothing was granted: a confirmed request still pays.
	want(t, e.do("GET", tokenPath("?faucet=true&network=linea&address="+tEVM), bearer(alice), nil), 200, "")
}

func TestChainConfig(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	r := e.do("GET", "/v1/delegation/chain/config", bearer(alice), nil)
	want(t, r, 200, "")
	nets, _ := r.JSON["networks"].([]any)
	if r.JSON["count"] != float64(4) || len(nets) != 4 {
		t.Fatalf("all: %s", r.Raw)
	}
	for _, n := range nets {
		m := n.(map[string]any)
		toks := m["tokens"].(map[string]any)
		for sym, tk := range toks {
			tm := tk.(map[string]any)
			addr := tm["address"].(string)
			ok := sbEVMAddress(addr)
			if m["network"] == "solana" {
				ok = sbSolanaKey(addr)
			}
			if tm["symbol"] != sym || !ok || m["environment"] != "staging" {
				t.Errorf("%v token %s: %v", m["network"], sym, tm)
			}
		}
	}
	r = e.do("GET", "/v1/delegation/chain/config?network=solana", bearer(alice), nil)
	if r.JSON["count"] != float64(1) || r.JSON["_links"].(map[string]any)["self"] != "/v1/delegation/chain/config?network=solana" {
		t.Fatalf("solana: %s", r.Raw)
	}
	r = e.do("GET", "/v1/delegation/chain/config?network=base", bearer(alice), nil)
	if r.Status != 404 || r.str("error") == "" || r.str("message") == "" {
		t.Fatalf("unknown network: %d %s", r.Status, r.Raw)
	}
	sam, _ := e.login("sam@demo.test", "x-us-env", "true")
	us := e.do("GET", "/v1/delegation/chain/config?region=us", bearer(sam), nil)
	if us.Status != 200 || us.JSON["count"] != float64(3) {
		t.Fatalf("US by region=us: %d %s", us.Status, us.Raw)
	}
	if strings.Contains(string(us.Raw), `"etherlink"`) {
		t.Fatal("the US configuration has no etherlink")
	}
	usEth := us.JSON["networks"].([]any)[0].(map[string]any)["delegationContract"]
	euEth := nets[0].(map[string]any)["delegationContract"]
	if usEth == euEth {
		t.Fatal("US and EU delegation contracts must differ")
	}
	// x-us-env is the alternative to region=us.
	want(t, e.do("GET", "/v1/delegation/chain/config?network=linea", bearer(sam, "x-us-env", "true"), nil), 200, "")
}

// approval is a valid EVM post-approval body for a token answer.
func approval(tok resp) map[string]any {
	return map[string]any{"address": tEVM, "network": "linea", "currency": "usdc", "amount": "150.5",
		"txHash": "0x" + strings.Repeat("ab", 32), "sigHash": "0x" + strings.Repeat("cd", 65),
		"sigMessage": "I approve the delegation of 150.5 USDC", "token": tok.str("token"), "nonce": tok.str("nonce")}
}

func TestPostApprovalRegistersExternalWallet(t *testing.T) {
	e := newEnv(t, Options{})
	nora, _ := e.login("nora@demo.test")
	want(t, e.do("GET", "/v1/wallet/external", bearer(nora), nil), 200, "")
	tok := e.do("GET", tokenPath(""), bearer(nora), nil)
	body := approval(tok)
	want(t, e.do("POST", "/v1/delegation/evm/post-approval", bearer(nora), body), 200, "")
	w := e.do("GET", "/v1/wallet/external", bearer(nora), nil)
	if !strings.Contains(string(w.Raw), tEVM) || !strings.Contains(string(w.Raw), `"allowance":"150.5"`) {
		t.Fatalf("external wallets after post-approval: %s", w.Raw)
	}
	// Single use.
	want(t, e.do("POST", "/v1/delegation/evm/post-approval", bearer(nora), body), 400, "Delegation token already used: request a new one")
}

func TestPostApprovalTokenRules(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	frank, _ := e.login("frank@demo.test")
	tok := e.do("GET", tokenPath(""), bearer(alice), nil)
	body := approval(tok)

	body["nonce"] = "0000"
	want(t, e.do("POST", "/v1/delegation/evm/post-approval", bearer(alice), body), 400, "Nonce does not match the delegation token")
	body["nonce"] = tok.str("nonce")
	// Bound to its user: frank cannot use alice's token.
	want(t, e.do("POST", "/v1/delegation/evm/post-approval", bearer(frank), body), 400, "Invalid delegation token: request a new one")
	// A refused request does not consume it; 10 minutes end it.
	e.clock.Advance(10*time.Minute + time.Second)
	want(t, e.do("POST", "/v1/delegation/evm/post-approval", bearer(alice), body), 400, "Delegation token expired: request a new one")

	tok = e.do("GET", tokenPath(""), bearer(alice), nil)
	e.clock.Advance(9 * time.Minute)
	want(t, e.do("POST", "/v1/delegation/evm/post-approval", bearer(alice), approval(tok)), 200, "")
}

func TestPostApprovalValidation(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	tok := e.do("GET", tokenPath(""), bearer(alice), nil)
	cases := map[string]struct{ key, value string }{
		"address":    {"address", "0x123"},
		"network":    {"network", "solana"},
		"currency":   {"currency", "doge"},
		"amount":     {"amount", "1.2345678"},
		"txHash":     {"txHash", "0xabc"},
		"sigHash":    {"sigHash", "nothex"},
		"sigMessage": {"sigMessage", " "},
		"nonce":      {"nonce", ""},
	}
	for field, c := range cases {
		body := approval(tok)
		body[c.key] = c.value
		r := e.do("POST", "/v1/delegation/evm/post-approval", bearer(alice), body)
		errs, _ := r.JSON["errors"].([]any)
		if r.Status != 422 || len(errs) == 0 || errs[0].(map[string]any)["field"] != field {
			t.Errorf("%s: %d %s", field, r.Status, r.Raw)
		}
	}
	// An EVM body on the Solana route is refused field by field.
	r := e.do("POST", "/v1/delegation/solana/post-approval", bearer(alice), approval(tok))
	if r.Status != 422 || !strings.Contains(string(r.Raw), `"field":"address"`) || !strings.Contains(string(r.Raw), `"field":"txHash"`) {
		t.Fatalf("EVM body on solana: %d %s", r.Status, r.Raw)
	}
	// Nothing above consumed the token.
	want(t, e.do("POST", "/v1/delegation/evm/post-approval", bearer(alice), approval(tok)), 200, "")
}

func TestSolanaPostApproval(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	tok := e.do("GET", tokenPath(""), bearer(alice), nil)
	sig := delegationTxHash("solana", "x")
	body := map[string]any{"address": tSolana, "network": "solana", "currency": "usdc", "amount": "25",
		"txHash": sig, "sigHash": sig, "sigMessage": "approve", "token": tok.str("token"), "nonce": tok.str("nonce")}
	want(t, e.do("POST", "/v1/delegation/solana/post-approval", bearer(alice), body), 200, "")
	w := e.do("GET", "/v1/wallet/external", bearer(alice), nil)
	if !strings.Contains(string(w.Raw), tSolana) {
		t.Fatalf("external wallets: %s", w.Raw)
	}
}
