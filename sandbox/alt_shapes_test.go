package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
)

// altEndpoint is one answer whose shape the interface leaves "not shown",
// with the members the interface does document (which both modes keep).
type altEndpoint struct {
	name, method, path string
	body               any
	orders             bool     // X-Client-ID instead of x-client-key
	documented         []string // top-level members of the record (or of each item) both modes carry
}

var altEndpoints = []altEndpoint{
	{name: "transactions", method: "GET", path: "/v1/card/transactions"},
	{name: "internal wallets", method: "GET", path: "/v1/wallet/internal", documented: []string{"addressId", "currency"}},
	{name: "card-linked wallets", method: "GET", path: "/v1/wallet/internal/card_linked", documented: []string{"currency"}},
	{name: "external wallets", method: "GET", path: "/v1/wallet/external", documented: []string{"currency"}},
	{name: "credit wallet", method: "GET", path: "/v1/wallet/credit", documented: []string{"currency", "isWithdrawable"}},
	{name: "withdraw estimation", method: "GET", path: "/v1/wallet/credit/withdraw-estimation"},
	{name: "products", method: "GET", path: "/v1/order/products/available", orders: true, documented: []string{"id", "description", "isEligible"}},
	{name: "chain configuration", method: "GET", path: "/v1/delegation/chain/config", documented: []string{"networks", "count", "_links"}},
	{name: "withdrawal", method: "POST", path: "/v1/wallet/credit/withdraw", body: map[string]string{"amount": "10"}, documented: []string{"txHash"}},
}

// TestAltShapesAnswerDifferently is the contract of the alternate-shapes
// mode: every "not shown" answer differs from the default one in its
// member names, while the documented members stay as the interface says.
func TestAltShapesAnswerDifferently(t *testing.T) {
	plain, alt := newEnv(t, Options{}), newEnv(t, Options{AltShapes: true})
	plainTok, _ := plain.login("alice@demo.test")
	altTok, _ := alt.login("alice@demo.test")
	call := func(e *env, tok string, ep altEndpoint, path string) resp {
		h := bearer(tok)
		if ep.orders {
			h = ordHdr("acme-sandbox", tok)
		}
		return e.do(ep.method, path, h, ep.body)
	}
	for _, ep := range append(altEndpoints, altHistoryEndpoint(t, plain, plainTok), altOrderEndpoint(t, plain, plainTok, alt, altTok)) {
		t.Run(ep.name, func(t *testing.T) {
			a, b := call(plain, plainTok, ep, ep.path), call(alt, altTok, ep, ep.path)
			if a.Status != http.StatusOK || b.Status != http.StatusOK {
				t.Fatalf("status %d / %d: %s / %s", a.Status, b.Status, a.Raw, b.Raw)
			}
			ka, kb := memberNames(t, a.Raw), memberNames(t, b.Raw)
			if sameNames(ka, kb) {
				t.Fatalf("both modes answer with the members %v:\n%s\n%s", ka, a.Raw, b.Raw)
			}
			for _, d := range ep.documented {
				if !ka[d] || !kb[d] {
					t.Errorf("documented member %q missing (default %v, alt %v)", d, ka[d], kb[d])
				}
			}
		})
	}
}

// altHistoryEndpoint is the credit wallet's history, whose id is the
// credit wallet's (the same in both modes: the seed is the same).
func altHistoryEndpoint(t *testing.T, e *env, tok string) altEndpoint {
	r := e.do("GET", "/v1/wallet/credit", bearer(tok), nil)
	want(t, r, 200, "")
	return altEndpoint{name: "wallet history", method: "GET", path: "/v1/wallet/history?walletType=credit&walletId=" + r.str("id")}
}

// altOrderEndpoint places the same order on both sandboxes and looks it up.
func altOrderEndpoint(t *testing.T, plain *env, plainTok string, alt *env, altTok string) altEndpoint {
	body := map[string]string{"productId": "prod_virtual_card", "paymentMethod": "CRYPTO_EXTERNAL_DAIMO"}
	a := plain.do("POST", "/v1/order", ordHdr("acme-sandbox", plainTok), body)
	b := alt.do("POST", "/v1/order", ordHdr("acme-sandbox", altTok), body)
	want(t, a, 200, "")
	want(t, b, 200, "")
	if a.str("orderId") != b.str("orderId") {
		t.Fatalf("order ids differ: %s / %s", a.str("orderId"), b.str("orderId"))
	}
	return altEndpoint{name: "order status", method: "GET", path: "/v1/order/" + a.str("orderId"), orders: true}
}

// memberNames lists every member name of a JSON answer, nested ones as
// "parent.child", over all items of an array.
func memberNames(t *testing.T, raw []byte) map[string]bool {
	t.Helper()
	var v any
	d := json.NewDecoder(bytes.NewReader(raw))
	if err := d.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v: %s", err, raw)
	}
	out := map[string]bool{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case []any:
			for _, x := range v {
				walk(prefix, x)
			}
		case map[string]any:
			for k, x := range v {
				name := k
				if prefix != "" {
					name = prefix + "." + k
				}
				out[name] = true
				if _, nested := x.(map[string]any); nested || prefix == "" {
					walk(name, x)
				}
			}
		}
	}
	walk("", v)
	return out
}

func sameNames(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
