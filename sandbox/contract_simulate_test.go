package sandbox_test

import "testing"

func init() { familyScripts = append(familyScripts, simulateContract) }

// simulateContract exercises POST /sandbox/simulate against the document,
// and the transaction list holding what it made.
func simulateContract(t *testing.T, h *harness, login loginFunc) {
	alice := login("alice@demo.test")
	r := h.do("simulate 200 authorization", req{method: "POST", path: "/sandbox/simulate", hdr: withSecret(), want: 200,
		body: map[string]any{"type": "authorization", "user": "alice@demo.test", "amount": "12.50", "currency": "EUR", "merchant": "Coffee Corner", "mcc": "5814"}})
	tx, _ := r.obj()["transaction"].(map[string]any)
	checkf(t, tx["status"] == "PENDING" && tx["transactionType"] == "AUTHORIZATION", "authorization %s", r.raw)
	h.do("simulate 409 refund before clearing", req{method: "POST", path: "/sandbox/simulate", hdr: withSecret(), want: 409,
		body: map[string]any{"type": "refund", "user": "alice@demo.test", "authorizationId": tx["id"]}})
	r = h.do("simulate 200 clearing", req{method: "POST", path: "/sandbox/simulate", hdr: withSecret(), want: 200,
		body: map[string]any{"type": "clearing", "user": "alice@demo.test"}})
	checkf(t, r.obj()["authorization"].(map[string]any)["status"] == "CONFIRMED", "clearing %s", r.raw)
	h.do("simulate 400 type", req{method: "POST", path: "/sandbox/simulate", hdr: withSecret(), want: 400, badRequest: true,
		body: map[string]any{"type": "capture", "amount": "1"}})
	h.do("simulate 404 user", req{method: "POST", path: "/sandbox/simulate", hdr: withSecret(), want: 404,
		body: map[string]any{"type": "authorization", "user": "nobody", "amount": "1"}})
	h.do("simulate 401 secret", req{method: "POST", path: "/sandbox/simulate", hdr: withKey("x-secret-key", "sk_nope"), want: 401,
		body: map[string]any{"type": "authorization", "amount": "1"}})
	h.do("transactions 200 after simulate", req{method: "GET", path: "/v1/card/transactions", hdr: withBearer(alice), want: 200})
}
