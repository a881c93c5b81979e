package apiclient_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// interfaceOperation is one operation of the gateway's interface as
// `cardterm api` sends it, and whether it changes nothing.
type interfaceOperation struct {
	method, path string
	body         string
	read         bool
}

// everyInterfaceOperation is every operation the interface names, the
// ones it only names included, with ids of the demo tenant where a path
// needs one (the answer does not matter: only whether it was sent).
var everyInterfaceOperation = []interfaceOperation{
	{"POST", "/v1/auth/logout", "", false},
	{"POST", "/v1/auth/login", `{"username":"bob@demo.test","password":"demo-pass"}`, false},
	{"POST", "/v1/auth/oauth/token", `{"grant_type":"refresh_token","refresh_token":"x"}`, false},
	{"GET", "/v1/auth/oauth/authorize/initiate?client_id=" + sandbox.DemoClientKey + "&code_challenge=abc", "", false},
	{"DELETE", "/v1/auth/oauth/revoke", "", false},
	{"GET", "/v1/user", "", true},
	{"GET", "/v1/card/status", "", true},
	{"POST", "/v1/card/set-pin/token", `{}`, false},
	{"POST", "/v1/card/pin/token", `{}`, false},
	{"POST", "/v1/card/details/token", `{}`, false},
	{"POST", "/v1/card/freeze", "", false},
	{"POST", "/v1/card/unfreeze", "", false},
	{"POST", "/v1/card/order", `{"type":"VIRTUAL"}`, false},
	{"GET", "/v1/card/transactions", "", true},
	{"GET", "/v1/wallet/internal", "", true},
	{"GET", "/v1/wallet/internal/card_linked", "", true},
	{"POST", "/v1/wallet/internal/card_linked", `{"addressId":"x"}`, false},
	{"DELETE", "/v1/wallet/internal/card_linked", `{"addressId":"x"}`, false},
	{"GET", "/v1/wallet/external", "", true},
	{"GET", "/v1/wallet/credit", "", true},
	{"GET", "/v1/wallet/credit/withdraw-estimation", "", true},
	{"POST", "/v1/wallet/credit/withdraw", `{"amount":"1"}`, false},
	{"GET", "/v1/wallet/history", "", true},
	{"GET", "/v1/wallet/whitelist?currency=usdc", "", true},
	{"POST", "/v1/wallet/whitelist", `{"wallets":[]}`, false},
	{"DELETE", "/v1/wallet/whitelist", `{"walletIds":["x"]}`, false},
	{"GET", "/v1/delegation/token?faucet=true&address=0x52908400098527886E0F7030069857D2E4169EE7&network=linea", "", false},
	{"GET", "/v1/delegation/token", "", false},
	{"GET", "/v1/delegation/chain/config", "", true},
	{"POST", "/v1/delegation/evm/post-approval", `{}`, false},
	{"POST", "/v1/delegation/solana/post-approval", `{}`, false},
	{"POST", "/v1/order", `{"productId":"x","paymentMethod":"CRYPTO_EXTERNAL_DAIMO"}`, false},
	{"GET", "/v1/order/products/available", "", true},
	{"GET", "/v1/order/ord-1", "", true},
	{"POST", "/v2/consent/onboarding", `{}`, false},
	{"PATCH", "/v2/consent/onboarding/6f1c2d3e-0000-4000-8000-000000000001", `{"userId":"u"}`, false},
	{"GET", "/v2/consent/onboarding/onb-1", "", true},
	{"GET", "/v2/consent/user/u-1", "", true},
	{"GET", "/v2/consent/user/u-1/audit", "", true},
	{"GET", "/v2/consent/consentSet/6f1c2d3e-0000-4000-8000-000000000001", "", true},
	{"DELETE", "/v2/consent/consentSet/6f1c2d3e-0000-4000-8000-000000000001/consent/6f1c2d3e-0000-4000-8000-000000000002", "", false},
	{"GET", "/v1/webhooks", "", true},
	{"POST", "/v1/webhooks", `{}`, false},
	{"GET", "/v1/webhooks/0b7e0000-0000-4000-8000-000000000001", "", true},
	{"PUT", "/v1/webhooks/0b7e0000-0000-4000-8000-000000000001", `{"is_active":false}`, false},
	{"DELETE", "/v1/webhooks/0b7e0000-0000-4000-8000-000000000001", "", false},
	{"POST", "/v1/webhooks/0b7e0000-0000-4000-8000-000000000001/rotate-key", "", false},
}

// Every operation of the interface, through Raw (what `cardterm api`
// sends), against the sandbox's request log: read-only off, each one
// reaches the gateway; read-only on, only the reads do, and the rest are
// refused before a byte is sent.
func TestReadOnlySendsOnlyTheInterfacesReads(t *testing.T) {
	for _, readOnly := range []bool{false, true} {
		g := newGateway(t, sandbox.Options{})
		c := g.client(func(cfg *apiclient.Config) { cfg.ReadOnly = readOnly })
		login(t, c, "alice@demo.test")
		for _, op := range everyInterfaceOperation {
			before := len(g.srv.Requests())
			req := apiclient.RawRequest{Method: op.method, Path: op.path}
			if op.body != "" {
				req.Body = json.RawMessage(op.body)
			}
			_, err := c.Raw(context.Background(), req)
			sent := len(g.srv.Requests()) - before
			wantSent := !readOnly || op.read
			switch {
			case wantSent && sent == 0:
				t.Errorf("read-only %v: %s %s was not sent (%v)", readOnly, op.method, op.path, err)
			case !wantSent && sent != 0:
				t.Errorf("read-only %v: %s %s reached the gateway", readOnly, op.method, op.path)
			case !wantSent && !apiclient.IsReadOnlyRefusal(err):
				t.Errorf("read-only %v: %s %s: %v; want a read-only refusal", readOnly, op.method, op.path, err)
			}
		}
	}
}

// A method override or a path rewrite is refused in read-only mode however
// its name is spelled (case, '_' for '-', punctuation before it,
// brackets after it), and nothing reaches the recording gateway.
func TestReadOnlyRefusesOverridesHoweverSpelled(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	c := g.client(func(cfg *apiclient.Config) { cfg.ReadOnly = true })
	login(t, c, "alice@demo.test")
	for _, name := range []string{
		"X-HTTP-Method-Override", "x-http-method-override", "X_HTTP_Method_Override", "X-Http-Method",
		"X-Method-Override", "X-Forwarded-Method", "X-HTTP-Override", "Method", "x.method",
		"X-Original-URL", "X_Original_Url", "X-Rewrite-URL", "X-Original-URI", "X-Forwarded-Uri",
		"X-Forwarded-Path", "X-Envoy-Original-Path", "X-Forwarded-Prefix",
	} {
		t.Run("header "+name, func(t *testing.T) {
			refusedAndNotSent(t, g, c, apiclient.RawRequest{Method: "GET", Path: "/v1/card/status", Header: http.Header{name: {"POST"}}})
		})
	}
	for _, query := range []string{
		"_method=POST", "_METHOD=DELETE", "method=POST", ".method=POST", "+_method=POST", "%2B_method=POST",
		"_method[]=POST", "_method%5B%5D=POST", "%5Fmethod=POST", "x-http-method-override=PUT",
		"X_HTTP_METHOD_OVERRIDE=PUT", "limit=1&__method__=PATCH", "code_challenge.method=x",
	} {
		t.Run("parameter "+query, func(t *testing.T) {
			refusedAndNotSent(t, g, c, apiclient.RawRequest{Method: "GET", Path: "/v1/card/status?" + query})
		})
	}
	// The reads themselves still go.
	before := len(g.srv.Requests())
	if _, err := c.Raw(context.Background(), apiclient.RawRequest{Method: "GET", Path: "/v1/card/status", Header: http.Header{"X-Request-Id": {"1"}}}); err != nil {
		t.Errorf("a read with an ordinary header: %v", err)
	}
	if len(g.srv.Requests()) == before {
		t.Error("a read with an ordinary header was not sent")
	}
}

// refusedAndNotSent sends req through c and wants a read-only refusal
// that says nothing was sent, and nothing at the gateway.
func refusedAndNotSent(t *testing.T, g *gateway, c *apiclient.Client, req apiclient.RawRequest) {
	t.Helper()
	before := len(g.srv.Requests())
	_, err := c.Raw(context.Background(), req)
	if !apiclient.IsReadOnlyRefusal(err) || !strings.Contains(err.Error(), "nothing was sent") {
		t.Errorf("%s %s %v: %v; want a read-only refusal", req.Method, req.Path, req.Header, err)
	}
	if sent := g.srv.Requests()[before:]; len(sent) != 0 {
		t.Errorf("%s %s %v reached the gateway: %v", req.Method, req.Path, req.Header, sent)
	}
}

// Method overrides, a body on a read, and paths that only look like a
// read are refused in read-only mode before anything is sent.
func TestReadOnlyRefusesOverridesAndLookalikePaths(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	c := g.client(func(cfg *apiclient.Config) { cfg.ReadOnly = true })
	login(t, c, "alice@demo.test")
	before := len(g.srv.Requests())
	for _, req := range []apiclient.RawRequest{
		{Method: "GET", Path: "/v1/card/freeze?_METHOD=POST"},
		{Method: "GET", Path: "/v1/user", Body: json.RawMessage(`{"x":1}`)},
		{Method: "GET", Path: "/v1/order/.."},
		{Method: "GET", Path: "/v1/order/%2e%2e"},
		{Method: "GET", Path: "/v1/order/a%2Fb"},
		{Method: "GET", Path: "/v1/user/../card/freeze"},
		{Method: "GET", Path: "/v1//user"},
		{Method: "GET", Path: "/v1/user/"},
		{Method: "HEAD", Path: "/v1/user"},
		{Method: "GET", Path: "/sandbox/logs"},
		{Method: "GET", Path: "/v1/auth/oauth/authorize/initiate"},
	} {
		if _, err := c.Raw(context.Background(), req); !apiclient.IsReadOnlyRefusal(err) {
			t.Errorf("%s %s %v: %v; want a read-only refusal", req.Method, req.Path, req.Header, err)
		} else if !strings.Contains(err.Error(), "nothing was sent") {
			t.Errorf("%s %s: %q does not say nothing was sent", req.Method, req.Path, err)
		}
	}
	if got := g.srv.Requests()[before:]; len(got) != 0 {
		t.Errorf("refused requests reached the gateway: %v", got)
	}
}

// The typed operations keep the same list: the mutations, the token
// issuers and the OAuth initiate are refused; the reads, the sign-in and
// the sign-out go through.
func TestReadOnlyTypedOperations(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	c := g.client(func(cfg *apiclient.Config) { cfg.ReadOnly = true })
	login(t, c, "alice@demo.test")
	ctx := context.Background()
	refused := map[string]func() error{
		"FreezeCard":   func() error { return c.FreezeCard(ctx) },
		"UnfreezeCard": func() error { return c.UnfreezeCard(ctx) },
		"OrderCard":    func() error { return c.OrderCard(ctx, "VIRTUAL") },
		"SetPINToken":  func() error { _, err := c.SetPINToken(ctx, apiclient.SetPINRequest{}); return err },
		"PINToken":     func() error { _, err := c.PINToken(ctx, nil); return err },
		"CardDetails":  func() error { _, err := c.CardDetailsToken(ctx, nil); return err },
		"Delegation": func() error {
			_, err := c.DelegationToken(ctx, apiclient.DelegationTokenRequest{Faucet: true,
				Address: "0x52908400098527886E0F7030069857D2E4169EE7", Network: "linea"})
			return err
		},
		"Initiate": func() error {
			_, err := c.AuthorizeInitiate(ctx, apiclient.AuthorizeRequest{Challenge: "abc"})
			return err
		},
		"LinkWallet":    func() error { return c.LinkWallet(ctx, "a1") },
		"Withdraw":      func() error { _, err := c.Withdraw(ctx, "1"); return err },
		"RotateKey":     func() error { _, err := c.RotateWebhookKey(ctx, "0b7e0000-0000-4000-8000-000000000001"); return err },
		"DeleteWebhook": func() error { return c.DeleteWebhook(ctx, "0b7e0000-0000-4000-8000-000000000001") },
		"PlaceOrder":    func() error { _, err := c.PlaceOrder(ctx, "p1", "CRYPTO_EXTERNAL_DAIMO"); return err },
	}
	before := len(g.srv.Requests())
	for name, call := range refused {
		if err := call(); !apiclient.IsReadOnlyRefusal(err) {
			t.Errorf("%s: %v; want a read-only refusal", name, err)
		}
	}
	if got := g.srv.Requests()[before:]; len(got) != 0 {
		t.Errorf("refused operations reached the gateway: %v", got)
	}
	if _, err := c.CardStatus(ctx); err != nil {
		t.Errorf("a read in read-only mode: %v", err)
	}
	if err := c.Logout(ctx); err != nil {
		t.Errorf("sign-out in read-only mode: %v", err)
	}
	approved := g.client(func(cfg *apiclient.Config) { cfg.ReadOnly, cfg.ApprovedSession = true, true })
	if _, err := approved.AuthorizeInitiate(ctx, apiclient.AuthorizeRequest{Challenge: strings.Repeat("a", 43)}); apiclient.IsReadOnlyRefusal(err) {
		t.Errorf("an approved session's initiate was refused: %v", err)
	}
}

func TestReadOnlyAllowsForTheCommandLine(t *testing.T) {
	for _, c := range []struct {
		method, path string
		header       http.Header
		ok           bool
	}{
		{"GET", "/v1/user", nil, true},
		{"GET", "v2/consent/user/u-1/audit?limit=10", nil, true},
		{"GET", "/v1/delegation/token?faucet=true", nil, false},
		{"POST", "/v1/auth/login", nil, false},
		{"GET", "/v1/user?_method=DELETE", nil, false},
		{"GET", "/v1/user", http.Header{"X-HTTP-Method-Override": {"PUT"}}, false},
	} {
		if ok, why := apiclient.ReadOnlyAllows(c.method, c.path, c.header); ok != c.ok || ok == (why != "") {
			t.Errorf("%s %s %v: %v %q; want %v", c.method, c.path, c.header, ok, why, c.ok)
		}
	}
}
