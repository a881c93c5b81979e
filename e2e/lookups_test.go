package e2e

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// lookupRun runs `cardterm get ... --json` on the embedded sandbox.
func lookupRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runPiped(t, env, nil, append(append([]string{"get"}, args...), "--json")...)
}

func TestJSONLookups(t *testing.T) {
	out, _, code := lookupRun(t, nil, "user")
	var user struct{ ID, Email, VerificationState string }
	if err := json.Unmarshal([]byte(out), &user); code != 0 || err != nil || user.Email != "alice@demo.test" || user.VerificationState != "VERIFIED" {
		t.Fatalf("--json user: %d %v %q", code, err, out)
	}

	// Consent look-ups need no signed-in user, only the client key.
	out, _, code = lookupRun(t, []string{"CARDTERM_USERNAME=", "CARDTERM_PASSWORD="}, "consent", user.ID)
	if code != 0 || !strings.Contains(out, `"consentStatus": "complete"`) || !strings.Contains(out, `"consentSets"`) {
		t.Fatalf("--json consent: %d %q", code, out)
	}

	// Unknown gateway fields are kept in the output.
	out, _, code = lookupRun(t, nil, "card")
	if code != 0 || !strings.Contains(out, `"network": "VISA"`) || !strings.Contains(out, `"panLast4": "4242"`) {
		t.Fatalf("--json card: %d %q", code, out)
	}

	// The gateway's refusal: a message and exit 1.
	_, errOut, code := lookupRun(t, []string{"CARDTERM_USERNAME=nora@demo.test", "CARDTERM_PASSWORD=demo-pass"}, "card")
	if code != 1 || !strings.Contains(errOut, "Card not found (404)") {
		t.Fatalf("nora's card: %d %q", code, errOut)
	}

	// Hostile text from the gateway comes out escaped, never raw.
	out, _, code = lookupRun(t, []string{"CARDTERM_USERNAME=mallory@demo.test", "CARDTERM_PASSWORD=demo-pass"}, "user")
	if code != 0 || strings.ContainsAny(out, "\x1b\x07\r") || !strings.Contains(out, `\u001b`) {
		t.Fatalf("mallory's profile is not escaped: %q", out)
	}

	// The gateway's error message on stderr is sanitized too (it echoes the
	// user id it was given here).
	_, errOut, code = lookupRun(t, nil, "consent", "u\x1b[2J\x1b]52;c;aGk=\x07x")
	if code != 1 || errOut == "" || strings.ContainsAny(errOut, "\x1b\x07") {
		t.Fatalf("--json consent with a hostile id: %d %q", code, errOut)
	}

	for _, bad := range [][]string{{}, {"nope"}, {"whitelist"}, {"transactions", "-1"}} {
		_, errOut, code := lookupRun(t, nil, bad...)
		if code == 0 || errOut == "" {
			t.Errorf("--json %v: exit %d, stderr %q; want a usage error", bad, code, errOut)
		}
	}
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
