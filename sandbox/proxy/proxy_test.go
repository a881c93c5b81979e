package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"cardterm/sandbox"
)

// rig is the sandbox behind the proxy, both over real HTTP, and the
// exchanges reported.
type rig struct {
	gateway, proxy *httptest.Server
	mu             sync.Mutex
	exchanges      []Exchange
}

func newRig(t *testing.T, upstream http.Handler) *rig {
	t.Helper()
	r := &rig{gateway: httptest.NewServer(upstream)}
	t.Cleanup(r.gateway.Close)
	p, err := New(Options{To: r.gateway.URL, OnExchange: func(ex Exchange) {
		r.mu.Lock()
		r.exchanges = append(r.exchanges, ex)
		r.mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	r.proxy = httptest.NewServer(p)
	t.Cleanup(r.proxy.Close)
	return r
}

// send makes one request through the proxy and returns the answer's body
// and the exchange reported.
func (r *rig) send(t *testing.T, method, path, body string, header ...string) ([]byte, Exchange) {
	t.Helper()
	req, err := http.NewRequest(method, r.proxy.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	return got, r.exchanges[len(r.exchanges)-1]
}

func TestProxyFlagsEachBrokenRuleWithItsRule(t *testing.T) {
	r := newRig(t, sandbox.New(sandbox.Options{}))
	login := `{"username":"alice@demo.test","password":"demo-pass"}`
	body, ex := r.send(t, "POST", "/v1/auth/login", login, "x-client-key", sandbox.DemoClientKey, "Content-Type", "application/json")
	if len(ex.Violations) != 0 || ex.Status != 200 || ex.Operation != "POST /v1/auth/login" {
		t.Fatalf("a correct sign-in is flagged: %+v", ex)
	}
	token := string(bytes.Split(bytes.Split(body, []byte(`"accessToken":"`))[1], []byte(`"`))[0])
	cases := []struct {
		name, method, path, body string
		header                   []string
		rule, detail             string
	}{
		{"missing x-client-key", "GET", "/v1/user", "", []string{"Authorization", "Bearer " + token},
			"header x-client-key (required): public client key; selects the backend environment (499 when missing, 498 when invalid)", "header x-client-key: missing"},
		{"a path id that is no UUID", "PUT", "/v1/webhooks/not-a-uuid", `{"name":"x"}`, []string{"Authorization", "Bearer " + token, "Content-Type", "application/json"},
			"path id (required) (UUID)", "path id:"},
		{"a string where a boolean", "PUT", "/v1/webhooks/6c1c5bd5-1b33-4c25-9a9e-3b1d2b1d5c11", `{"is_active":"yes"}`,
			[]string{"Authorization", "Bearer " + token, "Content-Type", "application/json"}, "body field is_active (boolean)", "is_active:"},
		{"no bearer token", "GET", "/v1/card/status", "", []string{"x-client-key", sandbox.DemoClientKey},
			"Authorization: `Bearer <ACCESS_TOKEN>` for user-authenticated endpoints", "no bearer token"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, ex := r.send(t, tc.method, tc.path, tc.body, tc.header...)
			found := false
			for _, v := range ex.Violations {
				if v.Where == "request" && strings.HasPrefix(v.Rule, tc.rule) && strings.Contains(v.Detail, tc.detail) {
					found = true
				}
				if strings.Contains(v.Detail+v.Rule, token) {
					t.Fatalf("a violation shows the token: %+v", v)
				}
			}
			if !found {
				t.Fatalf("no violation %q / %q in %+v", tc.rule, tc.detail, ex.Violations)
			}
		})
	}
}

// The app gets the gateway's answer byte for byte, and the gateway the
// app's request: odd spacing, headers and all.
func TestProxyPassesTrafficByteForByte(t *testing.T) {
	var gotBody []byte
	var gotHeader http.Header
	var gotTarget string
	answer := []byte("{ \"success\" :true ,\n\"x\": [1,2 ,3]}\n\n")
	r := newRig(t, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		gotBody, _ = io.ReadAll(req.Body)
		gotHeader, gotTarget = req.Header.Clone(), req.RequestURI
		w.Header().Set("X-Upstream", "kept")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(answer)
	}))
	sent := "{\"wallets\" : [ {\"currency\":\"usdc\"} ] ,  \"extra\":\"\\u00e9\"}"
	req, _ := http.NewRequest("POST", r.proxy.URL+"/v1/wallet/whitelist?a=1&b=%2F", strings.NewReader(sent))
	req.Header.Set("x-client-key", "ck_sandbox_acme")
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Custom", "v1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !bytes.Equal(got, answer) || resp.StatusCode != http.StatusCreated || resp.Header.Get("X-Upstream") != "kept" {
		t.Fatalf("the app got %d %q %v", resp.StatusCode, got, resp.Header)
	}
	if string(gotBody) != sent || gotTarget != "/v1/wallet/whitelist?a=1&b=%2F" || gotHeader.Get("X-Custom") != "v1" ||
		gotHeader.Get("Authorization") != "Bearer tok" {
		t.Fatalf("the gateway got %q %q %v", gotBody, gotTarget, gotHeader)
	}
	r.mu.Lock()
	ex := r.exchanges[0]
	r.mu.Unlock()
	if len(ex.Violations) == 0 {
		t.Fatal("the answer breaks the interface (no such shape) yet nothing is flagged")
	}
}

// A real sandbox answer passes through unchanged.
func TestProxyAnswerIsTheGatewaysOwn(t *testing.T) {
	gw := sandbox.New(sandbox.Options{})
	r := newRig(t, gw)
	direct := httptest.NewServer(gw)
	defer direct.Close()
	get := func(base string) []byte {
		req, _ := http.NewRequest("GET", base+"/v1/order/products/available", nil)
		req.Header.Set("X-Client-ID", sandbox.DemoClientKey)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return b
	}
	if via, straight := get(r.proxy.URL), get(direct.URL); !bytes.Equal(via, straight) {
		t.Fatalf("through the proxy %q, straight %q", via, straight)
	}
}

// The sandbox's own answers to correct requests break no rule: the
// proxy's checks raise no false alarm on an app that does it right.
func TestProxyFlagsNothingInCorrectTraffic(t *testing.T) {
	r := newRig(t, sandbox.New(sandbox.Options{}))
	body, _ := r.send(t, "POST", "/v1/auth/login", `{"username":"alice@demo.test","password":"demo-pass"}`,
		"x-client-key", sandbox.DemoClientKey, "Content-Type", "application/json")
	token := string(bytes.Split(bytes.Split(body, []byte(`"accessToken":"`))[1], []byte(`"`))[0])
	user := []string{"x-client-key", sandbox.DemoClientKey, "Authorization", "Bearer " + token}
	for _, path := range []string{"/v1/user", "/v1/card/status", "/v1/card/transactions", "/v1/wallet/internal", "/v1/wallet/credit",
		"/v1/wallet/whitelist?currency=usdc", "/v1/delegation/chain/config", "/v1/webhooks"} {
		if _, ex := r.send(t, "GET", path, "", user...); len(ex.Violations) != 0 || ex.Status != 200 {
			t.Errorf("GET %s: %d %+v", path, ex.Status, ex.Violations)
		}
	}
	if _, ex := r.send(t, "GET", "/v1/order/products/available", "", "X-Client-ID", sandbox.DemoClientKey, "Authorization", "Bearer "+token); len(ex.Violations) != 0 {
		t.Errorf("products: %+v", ex.Violations)
	}
	if _, ex := r.send(t, "GET", "/v1/user", "", "x-client-key", sandbox.DemoClientKey, "Authorization", "Bearer wrong"); len(ex.Violations) != 0 || ex.Status != 401 {
		t.Errorf("a refused token is the gateway's answer, not a broken rule: %d %+v", ex.Status, ex.Violations)
	}
}
