package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// gatewayReader fetches what the gateway answers to a request, with the
// test's own session, to compare with what the look-ups print.
type gatewayReader struct {
	t     *testing.T
	base  string
	token string
}

func (g gatewayReader) do(method, path string, body any, headers ...string) []byte {
	g.t.Helper()
	status, out := g.answer(method, path, body, headers...)
	if status/100 != 2 {
		g.t.Fatalf("%s %s: %d %s", method, path, status, out)
	}
	return out
}

// answer is the gateway's status and body, an error answer's too.
func (g gatewayReader) answer(method, path string, body any, headers ...string) (int, []byte) {
	g.t.Helper()
	var in io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		in = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, g.base+path, in)
	if err != nil {
		g.t.Fatal(err)
	}
	req.Header.Set("x-client-key", sandbox.DemoClientKey)
	req.Header.Set("X-Client-ID", sandbox.DemoClientKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if g.token != "" {
		req.Header.Set("Authorization", "Bearer "+g.token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		g.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

// jsonValue parses JSON text into a comparable value.
func jsonValue(t *testing.T, what string, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s is not JSON: %v\n%s", what, err, b)
	}
	return v
}

// Every look-up prints the gateway's own answer: parsed, it is the same
// JSON value the gateway sends for the same request (no field added, none
// renamed, pages as the gateway numbers them).
func TestJSONPrintsTheGatewaysOwnBody(t *testing.T) {
	sb, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	gw := gatewayReader{t: t, base: sb.URL}
	var login struct{ AccessToken string }
	_ = json.Unmarshal(gw.do("POST", "/v1/auth/login", map[string]string{"username": "alice@demo.test", "password": "demo-pass"}), &login)
	gw.token = login.AccessToken

	var user struct{ ID string }
	_ = json.Unmarshal(gw.do("GET", "/v1/user", nil), &user)
	var products []struct{ ID string }
	_ = json.Unmarshal(gw.do("GET", "/v1/order/products/available", nil), &products)
	var order struct{ OrderID string }
	_ = json.Unmarshal(gw.do("POST", "/v1/order", map[string]string{"productId": products[0].ID, "paymentMethod": "CRYPTO_EXTERNAL_DAIMO"}), &order)
	var hooks []struct{ ID string }
	_ = json.Unmarshal(gw.do("GET", "/v1/webhooks", nil), &hooks)
	var consent struct {
		ConsentSets []struct{ OnboardingID string }
	}
	_ = json.Unmarshal(gw.do("GET", "/v2/consent/user/"+user.ID+"?full=true", nil), &consent)
	if user.ID == "" || order.OrderID == "" || len(hooks) == 0 || len(consent.ConsentSets) == 0 {
		t.Fatalf("the sandbox's seed lacks what this test reads: user %q order %q hooks %d sets %d", user.ID, order.OrderID, len(hooks), len(consent.ConsentSets))
	}
	credit := gw.do("GET", "/v1/wallet/credit", nil)
	wallets := `{"internal":` + string(gw.do("GET", "/v1/wallet/internal", nil)) +
		`,"cardLinked":` + string(gw.do("GET", "/v1/wallet/internal/card_linked", nil)) +
		`,"external":` + string(gw.do("GET", "/v1/wallet/external", nil)) +
		`,"credit":` + string(credit) + `}`

	for _, c := range []struct {
		args []string
		want []byte
	}{
		{[]string{"user"}, gw.do("GET", "/v1/user", nil)},
		{[]string{"card"}, gw.do("GET", "/v1/card/status", nil)},
		{[]string{"wallets"}, []byte(wallets)},
		{[]string{"transactions"}, gw.do("GET", "/v1/card/transactions?page=0", nil)},
		{[]string{"transactions", "2"}, gw.do("GET", "/v1/card/transactions?page=1", nil)},
		{[]string{"whitelist", "usdc"}, gw.do("GET", "/v1/wallet/whitelist?currency=usdc", nil)},
		{[]string{"chain-config", "linea"}, gw.do("GET", "/v1/delegation/chain/config?network=linea", nil)},
		{[]string{"products"}, gw.do("GET", "/v1/order/products/available", nil)},
		{[]string{"order", order.OrderID}, gw.do("GET", "/v1/order/"+order.OrderID, nil)},
		{[]string{"webhooks"}, gw.do("GET", "/v1/webhooks", nil)},
		{[]string{"webhook", hooks[0].ID}, gw.do("GET", "/v1/webhooks/"+hooks[0].ID, nil)},
		{[]string{"consent", user.ID}, gw.do("GET", "/v2/consent/user/"+user.ID+"?full=true", nil)},
		{[]string{"audit", user.ID}, gw.do("GET", "/v2/consent/user/"+user.ID+"/audit?limit=100&offset=0", nil)},
		{[]string{"onboarding", consent.ConsentSets[0].OnboardingID}, gw.do("GET", "/v2/consent/onboarding/"+consent.ConsentSets[0].OnboardingID, nil)},
	} {
		env := []string{"CARDTERM_USERNAME=alice@demo.test", "CARDTERM_PASSWORD=demo-pass"}
		args := append([]string{"--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox"}, c.args...)
		out, errOut, code := lookupRun(t, env, args...)
		if code != 0 {
			t.Errorf("--json %v: exit %d: %s", c.args, code, errOut)
			continue
		}
		if got, want := jsonValue(t, "output", []byte(out)), jsonValue(t, "gateway body", c.want); !reflect.DeepEqual(got, want) {
			t.Errorf("--json %v prints something else than the gateway sent:\n got %s\nwant %s", c.args, out, c.want)
		}
	}
}

// Usage errors exit 2, the gateway's refusal 1, a wrong client key 3, an
// unreachable gateway 4, and a setting that is missing 2 before anything
// is sent; a look-up never stops at a secret-key prompt.
func TestJSONExitCodes(t *testing.T) {
	for _, c := range []struct {
		env  []string
		args []string
		want int
		says string
	}{
		{nil, []string{}, exitUsage, "name a look-up"},
		{nil, []string{"nope"}, exitUsage, "no look-up"},
		{nil, []string{"whitelist"}, exitUsage, "needs CURRENCY"},
		{nil, []string{"transactions", "0"}, exitUsage, "from 1"},
		{nil, []string{"transactions", "1", "2"}, exitUsage, "not \"1 2\""},
		{nil, []string{"user", "extra"}, exitUsage, "not \"extra\""},
		{nil, []string{"wallets", "x"}, exitUsage, "no arguments"},
		{nil, []string{"chain-config", "base"}, exitUsage, "not one the gateway documents"},
		{[]string{"CARDTERM_USERNAME=nora@demo.test", "CARDTERM_PASSWORD=demo-pass"}, []string{"card"}, exitRefused, "Card not found (404)"},
		{[]string{"CARDTERM_USERNAME=alice@demo.test", "CARDTERM_PASSWORD=demo-pass"}, []string{"--client-key", "ck_nope", "user"}, exitAuth, "sign-in"},
		{nil, []string{"--base-url", "http://127.0.0.1:1", "--client-key", "ck_x", "consent", "u1"}, exitNetwork, "cannot reach"},
		{[]string{"CARDTERM_CLIENT_KEY=", "CARDTERM_SECRET_KEY="}, []string{"--base-url", "http://127.0.0.1:1", "audit", "u1"}, exitUsage, "--client-key"},
	} {
		_, errOut, code := lookupRun(t, c.env, c.args...)
		if code != c.want || !strings.Contains(errOut, c.says) {
			t.Errorf("--json %v: exit %d, stderr %q; want %d saying %q", c.args, code, errOut, c.want, c.says)
		}
	}
}
