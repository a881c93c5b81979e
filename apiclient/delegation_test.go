package apiclient

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// delegationRecorder is a fake gateway that records the requests it gets and
// answers with status and body.
type delegationRecorder struct {
	mu     sync.Mutex
	reqs   []*http.Request
	bodies []string
	status int
	body   string
}

func (d *delegationRecorder) server(t *testing.T) *httptest.Server {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		d.mu.Lock()
		d.reqs = append(d.reqs, r)
		d.bodies = append(d.bodies, string(b))
		d.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(d.status)
		_, _ = io.WriteString(w, d.body)
	}))
	t.Cleanup(ts.Close)
	return ts
}

func delegationClient(url string, us bool) *Client {
	c := New(Config{BaseURL: url, ClientKey: "ck", US: us})
	c.SetSession(Session{AccessToken: "at-123456789"})
	return c
}

func TestDelegationTokenQueryHeadersAnd207(t *testing.T) {
	d := &delegationRecorder{status: 207, body: `{"token":"tok","nonce":"n1","faucet":{"success":false,"network":"linea","status":"declined","transactionHash":"0xabc","error":"already","gasWei":"1000"},"traceId":"x"}`}
	c := delegationClient(d.server(t).URL, true)
	got, err := c.DelegationToken(context.Background(), DelegationTokenRequest{Faucet: true, Address: "0x52908400098527886E0F7030069857D2E4169EE7", Network: "linea"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != 207 || !got.FaucetFailed() || got.Token != "tok" || got.Nonce != "n1" || got.Faucet.TransactionHash != "0xabc" ||
		got.Faucet.Error != "already" || string(got.Faucet.Extra["gasWei"]) != `"1000"` || string(got.Extra["traceId"]) != `"x"` {
		t.Fatalf("got %+v faucet %+v", got, got.Faucet)
	}
	r := d.reqs[0]
	q := r.URL.Query()
	if r.URL.Path != "/v1/delegation/token" || q.Get("faucet") != "true" || q.Get("network") != "linea" ||
		q.Get("address") != "0x52908400098527886E0F7030069857D2E4169EE7" || r.Header.Get("x-client-key") != "ck" ||
		r.Header.Get("Authorization") != "Bearer at-123456789" || r.Header.Get("x-us-env") != "true" {
		t.Fatalf("request %s %v", r.URL, r.Header)
	}
}

func TestDelegationTokenRefusesBadFaucetInputBeforeSending(t *testing.T) {
	d := &delegationRecorder{status: 200, body: `{"token":"t","nonce":"n"}`}
	c := delegationClient(d.server(t).URL, false)
	for _, r := range []DelegationTokenRequest{
		{Faucet: true, Network: "linea"},
		{Faucet: true, Network: "linea", Address: "0x123"},
		{Faucet: true, Network: "solana", Address: "0x52908400098527886E0F7030069857D2E4169EE7"},
		{Faucet: true, Network: "polygon", Address: "0x52908400098527886E0F7030069857D2E4169EE7"},
	} {
		if _, err := c.DelegationToken(context.Background(), r); err == nil {
			t.Errorf("%+v: accepted", r)
		}
	}
	if len(d.reqs) != 0 {
		t.Fatalf("%d requests were sent", len(d.reqs))
	}
	got, err := c.DelegationToken(context.Background(), DelegationTokenRequest{})
	if err != nil || got.Status != 200 || got.Faucet != nil || got.FaucetFailed() || d.reqs[0].URL.RawQuery != "" {
		t.Fatalf("plain token %+v %v %q", got, err, d.reqs[0].URL.RawQuery)
	}
}

func TestDelegationTokenWithoutTokenIsAnError(t *testing.T) {
	d := &delegationRecorder{status: 200, body: `{"nonce":"n"}`}
	if _, err := delegationClient(d.server(t).URL, false).DelegationToken(context.Background(), DelegationTokenRequest{}); err == nil {
		t.Fatal("an answer without a token was accepted")
	}
}

func TestChainConfigRegionAndTolerance(t *testing.T) {
	d := &delegationRecorder{status: 200, body: `{"networks":[{"network":"linea","environment":"staging","chainId":"59141","delegationContract":"0xc","tokens":{"usdc":{"symbol":"usdc","decimals":6,"address":"0xa"},"musd":{"decimals":"6","address":"0xb"}},"rpc":"https://x"}],"count":1,"_links":{"self":"/v1/delegation/chain/config?network=linea&region=us"}}`}
	c := delegationClient(d.server(t).URL, true)
	cc, err := c.ChainConfig(context.Background(), "linea")
	if err != nil {
		t.Fatal(err)
	}
	q := d.reqs[0].URL.Query()
	if q.Get("network") != "linea" || q.Get("region") != "us" || d.reqs[0].Header.Get("x-us-env") != "true" {
		t.Fatalf("request %s", d.reqs[0].URL)
	}
	n := cc.Networks[0]
	toks := n.SortedTokens()
	// decimals sent as a string lands in Extra; the symbol falls back to the key.
	if cc.Count != 1 || n.ChainID != "59141" || string(n.Extra["rpc"]) != `"https://x"` || len(toks) != 2 ||
		toks[0].Symbol != "musd" || toks[0].Decimals != 0 || toks[1].Decimals != 6 || cc.Links.Self == "" {
		t.Fatalf("config %+v tokens %+v", cc, toks)
	}

	d404 := &delegationRecorder{status: 404, body: `{"error":"Not Found","message":"No networks found"}`}
	_, err = delegationClient(d404.server(t).URL, false).ChainConfig(context.Background(), "etherlink")
	if !IsNotFound(err) || !strings.HasPrefix(ErrorMessage(err), "No networks found") {
		t.Fatalf("404: %v", err)
	}
	if d404.reqs[0].URL.Query().Has("region") {
		t.Fatal("region=us sent without Config.US")
	}
}

func TestPostApprovalSendsBodyAndValidates(t *testing.T) {
	d := &delegationRecorder{status: 200, body: `{"success":true}`}
	c := delegationClient(d.server(t).URL, false)
	req := PostApprovalRequest{Address: "0x52908400098527886E0F7030069857D2E4169EE7", Network: "linea", Currency: "usdc",
		Amount: "10.5", TxHash: "0x" + strings.Repeat("ab", 32), SigHash: "0x" + strings.Repeat("cd", 65),
		SigMessage: "approve", Token: "tok", Nonce: "n1"}
	if errs := ValidatePostApproval(ChainEVM, req); errs != nil {
		t.Fatalf("valid request refused: %v", errs)
	}
	if err := c.PostApproval(context.Background(), ChainEVM, req); err != nil {
		t.Fatal(err)
	}
	var sent map[string]string
	_ = json.Unmarshal([]byte(d.bodies[0]), &sent)
	if d.reqs[0].URL.Path != "/v1/delegation/evm/post-approval" || d.reqs[0].Method != "POST" ||
		sent["nonce"] != "n1" || sent["token"] != "tok" || sent["amount"] != "10.5" || len(sent) != 9 {
		t.Fatalf("sent %s %s", d.reqs[0].URL.Path, d.bodies[0])
	}
	if err := c.PostApproval(context.Background(), "tron", req); err == nil {
		t.Fatal("an unknown chain was accepted")
	}

	bad := req
	bad.Amount, bad.TxHash, bad.Network = "1e5", "0x12", "solana"
	fields := map[string]bool{}
	for _, fe := range ValidatePostApproval(ChainEVM, bad) {
		fields[fe.Field] = true
	}
	if !fields["amount"] || !fields["txHash"] || !fields["network"] || fields["address"] {
		t.Fatalf("problems %v", fields)
	}
	if errs := ValidatePostApproval(ChainSolana, req); len(errs) < 3 {
		t.Fatalf("an EVM request passes as Solana: %v", errs)
	}

	fail := &delegationRecorder{status: 400, body: `{"message":"Delegation token already used: request a new one"}`}
	err := delegationClient(fail.server(t).URL, false).PostApproval(context.Background(), ChainEVM, req)
	if !IsStatus(err, 400) || !strings.Contains(err.Error(), "already used") || len(fail.reqs) != 1 {
		t.Fatalf("400: %v (%d requests)", err, len(fail.reqs))
	}
}

func TestChainOf(t *testing.T) {
	if ChainOf("solana") != ChainSolana || ChainOf("linea") != ChainEVM || ChainOf("base") != ChainEVM {
		t.Fatal("ChainOf")
	}
}
