package sandbox

import (
	"encoding/json"
	"testing"
	"time"
)

func list(t *testing.T, r resp) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := json.Unmarshal(r.Raw, &out); err != nil {
		t.Fatalf("not an array: %s", r.Raw)
	}
	return out
}

func TestWalletSeedIsDeterministic(t *testing.T) {
	a, b := newEnv(t, Options{}), newEnv(t, Options{})
	ta, _ := a.login("lena@demo.test")
	tb, _ := b.login("lena@demo.test")
	ra := a.do("GET", "/v1/wallet/internal", bearer(ta), nil)
	rb := b.do("GET", "/v1/wallet/internal", bearer(tb), nil)
	if string(ra.Raw) != string(rb.Raw) || len(list(t, ra)) != 6 {
		t.Fatalf("seed differs or wrong size:\n%s\n%s", ra.Raw, rb.Raw)
	}
	linked := list(t, a.do("GET", "/v1/wallet/internal/card_linked", bearer(ta), nil))
	if len(linked) != 5 || linked[0]["priority"].(float64) != 1 {
		t.Fatalf("linked %v", linked)
	}
}

func TestLinkLimitMessage(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("lena@demo.test")
	in := list(t, e.do("GET", "/v1/wallet/internal", bearer(tok), nil))
	r := e.do("POST", "/v1/wallet/internal/card_linked", bearer(tok), map[string]string{"addressId": in[5]["addressId"].(string)})
	want(t, r, 400, "A maximum of 5 wallets can be linked")
	want(t, e.do("DELETE", "/v1/wallet/internal/card_linked", bearer(tok), map[string]string{"addressId": in[0]["addressId"].(string)}), 200, "")
	want(t, e.do("POST", "/v1/wallet/internal/card_linked", bearer(tok), map[string]string{"addressId": in[5]["addressId"].(string)}), 201, "")
}

func TestWalletRoutesNeedVerifiedUser(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("umar@demo.test")
	for _, p := range []string{"/v1/wallet/internal", "/v1/wallet/credit", "/v1/wallet/whitelist?currency=usdc"} {
		want(t, e.do("GET", p, bearer(tok), nil), 403, "Not authorized")
	}
	want(t, e.do("GET", "/v1/wallet/internal", ck(), nil), 401, "Not authenticated")
}

func TestCreditAndWithdrawal(t *testing.T) {
	e := newEnv(t, Options{})
	nora, _ := e.login("nora@demo.test")
	want(t, e.do("GET", "/v1/wallet/credit", bearer(nora), nil), 404, "Credit wallet not found")

	tok, _ := e.login("alice@demo.test")
	want(t, e.do("POST", "/v1/wallet/credit/withdraw", bearer(tok), map[string]any{"amount": 10}), 422, "")
	want(t, e.do("POST", "/v1/wallet/credit/withdraw", bearer(tok), map[string]any{"amount": "-1"}), 422, "")
	r := e.do("POST", "/v1/wallet/credit/withdraw", bearer(tok), map[string]any{"amount": "50.5"})
	want(t, r, 200, "")
	if len(r.str("txHash")) != 66 {
		t.Fatalf("tx %s", r.Raw)
	}
	want(t, e.do("POST", "/v1/wallet/credit/withdraw", bearer(tok), map[string]any{"amount": "1"}), 409, "A withdrawal is already in progress for this wallet")
	e.clock.Advance(withdrawalSettle + time.Second)
	if got := e.do("GET", "/v1/wallet/credit", bearer(tok), nil).str("balance"); got != "449.50" {
		t.Fatalf("balance %s", got)
	}
	want(t, e.do("POST", "/v1/wallet/credit/withdraw", bearer(tok), map[string]any{"amount": "449.51"}), 400, "")
	// The fee comes out of the amount: the whole balance can be withdrawn.
	want(t, e.do("POST", "/v1/wallet/credit/withdraw", bearer(tok), map[string]any{"amount": "449.50"}), 200, "")
}

func TestWhitelistValidationShape(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	want(t, e.do("GET", "/v1/wallet/whitelist", bearer(tok), nil), 422, "The currency parameter is required")
	r := e.do("POST", "/v1/wallet/whitelist", bearer(tok), map[string]any{"wallets": []map[string]string{
		{"currency": "usdc", "name": "a", "beneficiaryFirstName": "b", "beneficiaryLastName": "c", "walletAddress": "0x1"},
	}})
	want(t, r, 422, "Invalid address format for usdc (wallets[0].walletAddress)")
	errs, _ := r.JSON["errors"].([]any)
	if len(errs) != 1 || errs[0].(map[string]any)["field"] != "wallets[0].walletAddress" {
		t.Fatalf("errors %s", r.Raw)
	}
	want(t, e.do("POST", "/v1/wallet/whitelist", bearer(tok), map[string]any{"wallets": []any{}}), 422, "wallets is required")
	want(t, e.do("DELETE", "/v1/wallet/whitelist", bearer(tok), map[string]any{"walletIds": []string{"x"}}), 422, "Invalid wallet id: x")
	want(t, e.do("DELETE", "/v1/wallet/whitelist", bearer(tok), map[string]any{}), 422, "walletIds is required")
	// x-us-env in the query routes to the US backend, where alice is unknown.
	want(t, e.do("GET", "/v1/wallet/whitelist?currency=usdc&x-us-env=true", bearer(tok), nil), 401, "Not authenticated")
}

func TestMoneyMicros(t *testing.T) {
	for in, want := range map[string]int64{"1": 1_000_000, "0.45": 450_000, "12.000001": 12_000_001} {
		if got, err := parseMicros(in); err != nil || got != want {
			t.Errorf("parseMicros(%q) = %d, %v", in, got, err)
		}
	}
	for _, in := range []string{"", "0", "1.", ".5", "1e3", "1.0000001", "-1", "abc"} {
		if _, err := parseMicros(in); err == nil {
			t.Errorf("parseMicros(%q) accepted", in)
		}
	}
	if formatMicros(449_500_000) != "449.50" || formatMicros(1) != "0.000001" {
		t.Error("formatMicros")
	}
}
