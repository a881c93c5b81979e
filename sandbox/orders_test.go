package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// ordHdr identifies the client by X-Client-ID (the order endpoints' header)
// with a bearer token.
func ordHdr(clientID, tok string, kv ...string) http.Header {
	return hdr(append([]string{"X-Client-ID", clientID, "Authorization", "Bearer " + tok}, kv...)...)
}

type ordProductT struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	IsEligible  bool   `json:"isEligible"`
	Reason      string `json:"ineligibleReason"`
}

func ordProductsOf(t *testing.T, e *env, tok string) map[string]ordProductT {
	t.Helper()
	r := e.do("GET", "/v1/order/products/available", ordHdr("acme-sandbox", tok), nil)
	want(t, r, 200, "")
	var list []ordProductT
	if err := json.Unmarshal(r.Raw, &list); err != nil {
		t.Fatalf("products: %v: %s", err, r.Raw)
	}
	out := map[string]ordProductT{}
	for _, p := range list {
		out[p.ID] = p
	}
	return out
}

func TestOrderProductsVaryByUser(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	frank, _ := e.login("frank@demo.test")
	umar, _ := e.login("umar@demo.test")
	rex, _ := e.login("rex@demo.test")

	a := ordProductsOf(t, e, alice)
	if len(a) != 3 || !a["prod_virtual_card"].IsEligible || !a["prod_physical_card"].IsEligible || a["prod_metal_card"].IsEligible {
		t.Fatalf("alice's products: %+v", a)
	}
	if a["prod_metal_card"].Reason == "" || a["prod_virtual_card"].Reason != "" {
		t.Fatalf("ineligibleReason only on ineligible products: %+v", a)
	}
	if f := ordProductsOf(t, e, frank); !f["prod_metal_card"].IsEligible {
		t.Fatalf("frank may order the metal card: %+v", f)
	}
	for id, p := range ordProductsOf(t, e, umar) {
		if p.IsEligible || !strings.Contains(p.Reason, "verification") {
			t.Fatalf("unverified umar: %s is %+v", id, p)
		}
	}
	want(t, e.do("GET", "/v1/order/products/available", ordHdr("acme-sandbox", rex), nil), 403, "Not authorized")
}

func TestOrderClientIDRules(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	path := "/v1/order/products/available"
	// The client key is accepted as the client id of the same tenant.
	want(t, e.do("GET", path, ordHdr(DemoClientKey, alice), nil), 200, "")
	want(t, e.do("GET", path, hdr("Authorization", "Bearer "+alice), nil), 499, "Missing client id")
	// x-client-key alone does not identify the client on order endpoints.
	want(t, e.do("GET", path, bearer(alice), nil), 499, "Missing client id")
	want(t, e.do("GET", path, ordHdr("nobody", alice), nil), 498, "Invalid client id")
	// Another environment's client id: the token is not valid there.
	want(t, e.do("GET", path, ordHdr("acme-live", alice), nil), 401, "Not authenticated")
	want(t, e.do("GET", path, hdr("X-Client-ID", "acme-sandbox"), nil), 401, "Not authenticated")
}

func TestOrderValidation(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	umar, _ := e.login("umar@demo.test")
	rex, _ := e.login("rex@demo.test")
	h := ordHdr("acme-sandbox", alice)
	for _, c := range []struct {
		body any
		msg  string
	}{
		{map[string]any{"paymentMethod": ordPaymentMethod}, "productId is required"},
		{map[string]any{"productId": "  ", "paymentMethod": ordPaymentMethod}, "productId is required"},
		{map[string]any{"productId": "prod_virtual_card"}, "paymentMethod is required"},
		{map[string]any{"productId": "prod_virtual_card", "paymentMethod": "CARD"}, `Unsupported paymentMethod "CARD": the supported value is CRYPTO_EXTERNAL_DAIMO`},
		{map[string]any{"productId": "prod_virtual_card", "paymentMethod": "CRYPTO_EXTERNAL_STRIPE"}, `Unsupported paymentMethod "CRYPTO_EXTERNAL_STRIPE": the supported value is CRYPTO_EXTERNAL_DAIMO`},
		{map[string]any{"productId": "prod_gold", "paymentMethod": ordPaymentMethod}, `Unknown productId "prod_gold"`},
		{map[string]any{"productId": 7, "paymentMethod": ordPaymentMethod}, "Invalid JSON body: productId and paymentMethod must be strings"},
		{"{not json", "Invalid JSON body: productId and paymentMethod must be strings"},
		{nil, "productId is required"},
		{map[string]any{"productId": "prod_metal_card", "paymentMethod": ordPaymentMethod},
			"Product prod_metal_card is not eligible for this user: the metal card is offered to selected accounts only"},
	} {
		want(t, e.do("POST", "/v1/order", h, c.body), 422, c.msg)
	}
	body := map[string]any{"productId": "prod_virtual_card", "paymentMethod": ordPaymentMethod}
	want(t, e.do("POST", "/v1/order", ordHdr("acme-sandbox", umar), body), 422,
		"Product prod_virtual_card is not eligible for this user: identity verification is not complete")
	want(t, e.do("POST", "/v1/order", ordHdr("acme-sandbox", rex), body), 403, "Not authorized")
	want(t, e.do("POST", "/v1/order", hdr("Authorization", "Bearer "+alice), body), 499, "")
	want(t, e.do("POST", "/v1/order", ordHdr("x", alice), body), 498, "")
	want(t, e.do("POST", "/v1/order", ordHdr("acme-sandbox", "nope"), body), 401, "Not authenticated")
}

// ordPlace orders product as tok's user and returns the raw answer.
func ordPlace(t *testing.T, e *env, tok, product string) resp {
	t.Helper()
	r := e.do("POST", "/v1/order", ordHdr("acme-sandbox", tok), map[string]any{"productId": product, "paymentMethod": ordPaymentMethod})
	want(t, r, 200, "")
	return r
}

func ordStatus(t *testing.T, e *env, tok, id string) resp {
	t.Helper()
	r := e.do("GET", "/v1/order/"+id, ordHdr("acme-sandbox", tok), nil)
	want(t, r, 200, "")
	return r
}

func TestOrderCreatedAnswer(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	r := ordPlace(t, e, alice, "prod_physical_card")
	if !strings.Contains(string(r.Raw), `"paymentAmount":24.90`) {
		t.Fatalf("paymentAmount must be the exact JSON number 24.90: %s", r.Raw)
	}
	pc, _ := r.JSON["paymentConfig"].(map[string]any)
	// The destination is Linea USDC as the backend's chain configuration
	// lists it (a test network on sandbox credentials).
	cfg := e.do("GET", "/v1/delegation/chain/config?network=linea", bearer(alice), nil)
	want(t, cfg, 200, "")
	nets, _ := cfg.JSON["networks"].([]any)
	linea, _ := nets[0].(map[string]any)
	tokens, _ := linea["tokens"].(map[string]any)
	usdc, _ := tokens["usdc"].(map[string]any)
	if pc["paymentCurrency"] != "USD" || pc["destinationChainId"] != linea["chainId"] || pc["destinationChainId"] != "59141" ||
		pc["destinationTokenSymbol"] != "USDC" || pc["destinationTokenAddress"] != usdc["address"] || usdc["decimals"] != float64(6) {
		t.Fatalf("paymentConfig %s\nchain config %s", r.Raw, cfg.Raw)
	}
	dest, _ := pc["destinationAddress"].(string)
	if len(dest) != 42 || !strings.HasPrefix(dest, "0x") {
		t.Fatalf("destination %q is not an EVM address", dest)
	}
	if r.str("orderId") == "" || r.str("requestId") == "" || r.str("orderId") == r.str("requestId") {
		t.Fatalf("ids: %s", r.Raw)
	}
	// Deterministic: the same order on a fresh sandbox has the same ids.
	e2 := newEnv(t, Options{})
	alice2, _ := e2.login("alice@demo.test")
	if r2 := ordPlace(t, e2, alice2, "prod_physical_card"); r2.str("orderId") != r.str("orderId") {
		t.Fatalf("order ids differ across runs: %s vs %s", r.str("orderId"), r2.str("orderId"))
	}
	// A second order gets a new id and destination.
	r3 := ordPlace(t, e, alice, "prod_physical_card")
	pc3, _ := r3.JSON["paymentConfig"].(map[string]any)
	if r3.str("orderId") == r.str("orderId") || pc3["destinationAddress"] == dest {
		t.Fatalf("a second order reuses the first one's id or address")
	}
}

func TestOrderTimeRules(t *testing.T) {
	e := newEnv(t, Options{})
	nora, _ := e.login("nora@demo.test")
	frank, _ := e.login("frank@demo.test")
	virtual := ordPlace(t, e, nora, "prod_virtual_card").str("orderId")
	metal := ordPlace(t, e, frank, "prod_metal_card").str("orderId")
	physical := ordPlace(t, e, nora, "prod_physical_card").str("orderId")

	step := func(d time.Duration, wantV, wantM, wantP string) {
		t.Helper()
		e.clock.Advance(d)
		for _, c := range []struct{ tok, id, want string }{{nora, virtual, wantV}, {frank, metal, wantM}, {nora, physical, wantP}} {
			r := ordStatus(t, e, c.tok, c.id)
			if r.str("status") != c.want {
				t.Fatalf("after %s: order %s is %s, want %s: %s", d, c.id, r.str("status"), c.want, r.Raw)
			}
			paid := r.JSON["paidAt"] != nil
			if paid != (c.want == ordCompleted) {
				t.Fatalf("paidAt %v for status %s", r.JSON["paidAt"], c.want)
			}
		}
	}
	// nora has no card until the virtual card order completes.
	want(t, e.do("GET", "/v1/card/status", bearer(nora), nil), 404, "Card not found")
	step(0, ordStarted, ordStarted, ordStarted)
	step(2999*time.Millisecond, ordStarted, ordStarted, ordStarted)
	step(time.Millisecond, ordPending, ordPending, ordStarted)
	step(3*time.Second, ordCompleted, ordPending, ordStarted)
	r := ordStatus(t, e, nora, virtual)
	if r.str("paidAt") != t0.Add(6*time.Second).Format(time.RFC3339) {
		t.Fatalf("paidAt %q, want creation + 6 s", r.str("paidAt"))
	}
	md, _ := r.JSON["metadata"].(map[string]any)
	card := e.do("GET", "/v1/card/status", bearer(nora), nil)
	want(t, card, 200, "")
	if card.str("type") != "VIRTUAL" || card.str("status") != "ACTIVE" || md["cardId"] != card.str("id") {
		t.Fatalf("the completed order should have issued nora's virtual card (metadata %v): %s", md, card.Raw)
	}
	step(6*time.Second, ordCompleted, ordFailed, ordStarted)
	if md, _ := ordStatus(t, e, frank, metal).JSON["metadata"].(map[string]any); md["failureReason"] == nil {
		t.Fatalf("a FAILED order says why: %v", md)
	}
	// frank's FROZEN card stays: a failed order issues nothing.
	if c := e.do("GET", "/v1/card/status", bearer(frank), nil); c.str("status") != "FROZEN" {
		t.Fatalf("frank's card: %s", c.Raw)
	}
	step(30*time.Minute-13*time.Second, ordCompleted, ordFailed, ordStarted)
	step(time.Second, ordCompleted, ordFailed, ordExpired)
	// The card was issued once: still the same one.
	if c2 := e.do("GET", "/v1/card/status", bearer(nora), nil); c2.str("id") != card.str("id") {
		t.Fatalf("a second card was issued: %s", c2.Raw)
	}
}

func TestOrderCompletedKeepsExistingCard(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	id := ordPlace(t, e, alice, "prod_virtual_card").str("orderId")
	e.clock.Advance(time.Minute)
	r := ordStatus(t, e, alice, id)
	if md, _ := r.JSON["metadata"].(map[string]any); r.str("status") != ordCompleted || md["cardId"] != nil {
		t.Fatalf("alice already has a card: no new one: %s", r.Raw)
	}
	if c := e.do("GET", "/v1/card/status", bearer(alice), nil); c.str("panLast4") != "4242" {
		t.Fatalf("alice's card changed: %s", c.Raw)
	}
}

func TestOrderBelongsToItsUser(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	frank, _ := e.login("frank@demo.test")
	id := ordPlace(t, e, alice, "prod_virtual_card").str("orderId")
	want(t, e.do("GET", "/v1/order/"+id, ordHdr("acme-sandbox", frank), nil), 404, "Order not found")
	want(t, e.do("GET", "/v1/order/nope", ordHdr("acme-sandbox", alice), nil), 404, "Order not found")
	want(t, e.do("GET", "/v1/order/"+id, ordHdr("acme-sandbox", alice), nil), 200, "")
	// A new session of the same user still finds it.
	again, _ := e.login("alice@demo.test")
	want(t, e.do("GET", "/v1/order/"+id, ordHdr(DemoClientKey, again), nil), 200, "")
}
