package sandbox_test

import (
	"net/http"
	"testing"
	"time"

	"cardterm/sandbox"
)

func init() { familyScripts = append(familyScripts, ordersContract) }

// ordersContract exercises the order endpoints: success and every error
// status the interface names (401, 403, 422, 498, 499, 500; 404 for the
// order lookup), identified by X-Client-ID.
func ordersContract(t *testing.T, h *harness, login loginFunc) {
	alice := login("alice@demo.test")
	nora := login("nora@demo.test")
	frank := login("frank@demo.test")
	umar := login("umar@demo.test")
	rex := login("rex@demo.test")
	sam := login("sam@demo.test", "x-us-env", "true")
	clientID := sandbox.Credentials()[0].ClientID
	as := func(tok string, kv ...string) http.Header {
		return hdrs(append([]string{"X-Client-ID", clientID, "Authorization", "Bearer " + tok}, kv...)...)
	}
	order := func(product string) map[string]string {
		return map[string]string{"productId": product, "paymentMethod": "CRYPTO_EXTERNAL_DAIMO"}
	}

	// ---------------------------------------------------------------- products
	r := h.do("order products 200", req{method: "GET", path: "/v1/order/products/available", hdr: as(alice), want: 200})
	checkf(t, len(r.arr()) == 3, "alice sees %d products, want 3: %s", len(r.arr()), r.raw)
	h.do("order products 200 client key as id", req{method: "GET", path: "/v1/order/products/available",
		hdr: hdrs("X-Client-ID", sandbox.DemoClientKey, "Authorization", "Bearer "+alice), want: 200})
	r = h.do("order products 200 unverified", req{method: "GET", path: "/v1/order/products/available", hdr: as(umar), want: 200})
	for _, p := range r.arr() {
		m, _ := p.(map[string]any)
		checkf(t, m["isEligible"] == false, "unverified umar may not order %v", m["id"])
	}
	h.do("order products 200 US", req{method: "GET", path: "/v1/order/products/available", hdr: as(sam, "x-us-env", "true"), want: 200})
	h.do("order products 403", req{method: "GET", path: "/v1/order/products/available", hdr: as(rex), want: 403})
	h.do("order products 401", req{method: "GET", path: "/v1/order/products/available", hdr: hdrs("X-Client-ID", clientID), want: 401})
	h.do("order products 499", req{method: "GET", path: "/v1/order/products/available", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})
	h.do("order products 498", req{method: "GET", path: "/v1/order/products/available", hdr: as(alice, "X-Client-ID", "nobody"), want: 498})

	// ---------------------------------------------------------------- create
	r = h.do("order create 200", req{method: "POST", path: "/v1/order", hdr: as(nora), body: order("prod_virtual_card"), want: 200})
	virtual := r.str("orderId")
	pc, _ := r.obj()["paymentConfig"].(map[string]any)
	checkf(t, virtual != "" && pc["paymentAmount"] == float64(10) && pc["paymentCurrency"] == "USD", "order created: %s", r.raw)
	r = h.do("order create 200 metal", req{method: "POST", path: "/v1/order", hdr: as(frank), body: order("prod_metal_card"), want: 200})
	metal := r.str("orderId")
	r = h.do("order create 200 physical", req{method: "POST", path: "/v1/order", hdr: as(alice), body: order("prod_physical_card"), want: 200})
	physical := r.str("orderId")
	r = h.do("order create 422 ineligible", req{method: "POST", path: "/v1/order", hdr: as(alice), body: order("prod_metal_card"), want: 422})
	checkf(t, r.str("message") != "", "ineligible product: %s", r.raw)
	h.do("order create 422 unverified", req{method: "POST", path: "/v1/order", hdr: as(umar), body: order("prod_virtual_card"), want: 422})
	h.do("order create 422 no productId", req{method: "POST", path: "/v1/order", hdr: as(alice),
		body: map[string]string{"paymentMethod": "CRYPTO_EXTERNAL_DAIMO"}, want: 422, badRequest: true})
	h.do("order create 422 no paymentMethod", req{method: "POST", path: "/v1/order", hdr: as(alice),
		body: map[string]string{"productId": "prod_virtual_card"}, want: 422, badRequest: true})
	h.do("order create 422 unsupported provider", req{method: "POST", path: "/v1/order", hdr: as(alice),
		body: map[string]string{"productId": "prod_virtual_card", "paymentMethod": "CRYPTO_EXTERNAL_STRIPE"}, want: 422})
	h.do("order create 422 unknown product", req{method: "POST", path: "/v1/order", hdr: as(alice), body: order("prod_gold"), want: 422})
	h.do("order create 403", req{method: "POST", path: "/v1/order", hdr: as(rex), body: order("prod_virtual_card"), want: 403})
	h.do("order create 401", req{method: "POST", path: "/v1/order", hdr: as("sbx_at_nope"), body: order("prod_virtual_card"), want: 401})
	h.do("order create 499", req{method: "POST", path: "/v1/order", hdr: hdrs("Authorization", "Bearer "+alice),
		body: order("prod_virtual_card"), want: 499, badRequest: true})
	h.do("order create 498", req{method: "POST", path: "/v1/order", hdr: as(alice, "X-Client-ID", "nobody"), body: order("prod_virtual_card"), want: 498})

	// ---------------------------------------------------------------- lookup
	look := func(name, tok, id, status string) {
		r := h.do(name, req{method: "GET", path: "/v1/order/" + id, hdr: as(tok), want: 200})
		checkf(t, r.str("status") == status, "%s: status %q, want %s: %s", name, r.str("status"), status, r.raw)
	}
	look("order lookup 200 started", nora, virtual, "STARTED")
	h.clock.Advance(3 * time.Second)
	look("order lookup 200 pending", nora, virtual, "PENDING")
	h.clock.Advance(3 * time.Second)
	look("order lookup 200 completed", nora, virtual, "COMPLETED")
	h.clock.Advance(6 * time.Second)
	look("order lookup 200 failed", frank, metal, "FAILED")
	h.clock.Advance(30 * time.Minute)
	look("order lookup 200 expired", alice, physical, "EXPIRED")
	h.do("order lookup 404 unknown", req{method: "GET", path: "/v1/order/nope", hdr: as(alice), want: 404})
	h.do("order lookup 404 another user's", req{method: "GET", path: "/v1/order/" + virtual, hdr: as(alice), want: 404})
	h.do("order lookup 403", req{method: "GET", path: "/v1/order/" + virtual, hdr: as(rex), want: 403})
	h.do("order lookup 401", req{method: "GET", path: "/v1/order/" + virtual, hdr: hdrs("X-Client-ID", clientID), want: 401})
	h.do("order lookup 499", req{method: "GET", path: "/v1/order/" + virtual, hdr: hdrs("Authorization", "Bearer "+nora), want: 499, badRequest: true})
	h.do("order lookup 498", req{method: "GET", path: "/v1/order/" + virtual, hdr: as(nora, "X-Client-ID", "nobody"), want: 498})

	// ---------------------------------------------------------------- faults
	h.srv.SetFaults(sandbox.Faults{Burst429: 1})
	r = h.do("order products 429", req{method: "GET", path: "/v1/order/products/available", hdr: as(alice), want: 429})
	checkf(t, r.header.Get("Retry-After") != "", "429 without Retry-After")
	h.srv.SetFaults(sandbox.Faults{ErrorRate: 1})
	h.do("order products 500", req{method: "GET", path: "/v1/order/products/available", hdr: as(alice), want: 500})
	h.do("order create 500", req{method: "POST", path: "/v1/order", hdr: as(alice), body: order("prod_virtual_card"), want: 500})
	h.do("order lookup 500", req{method: "GET", path: "/v1/order/" + virtual, hdr: as(nora), want: 500})
	h.srv.SetFaults(sandbox.Faults{})
}
