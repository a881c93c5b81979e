package sandbox_test

import "testing"

func init() { familyScripts = append(familyScripts, whitelistSeedContract) }

// whitelistSeedContract exercises the sandbox-only seeding of a big
// whitelist against the document: the entries it adds are listed like any
// other.
func whitelistSeedContract(t *testing.T, h *harness, login loginFunc) {
	lena := login("lena@demo.test")
	secret := withSecret()
	before := len(h.do("whitelist before seeding 200", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdt",
		hdr: withKey("Authorization", "Bearer "+lena), want: 200}).arr())
	r := h.do("whitelist seed 200", req{method: "POST", path: "/sandbox/whitelist", hdr: secret, want: 200,
		body: map[string]any{"user": "lena@demo.test", "currency": "usdt", "count": 250}})
	checkf(t, r.obj()["total"] == float64(before+250) && r.obj()["added"] == float64(250), "seed answer %s", r.raw)
	list := h.do("whitelist after seeding 200", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdt",
		hdr: withKey("Authorization", "Bearer "+lena), want: 200}).arr()
	checkf(t, len(list) == before+250, "%d entries listed after seeding 250 onto %d", len(list), before)
	h.do("whitelist seed 400 count", req{method: "POST", path: "/sandbox/whitelist", hdr: secret, want: 400, badRequest: true,
		body: map[string]any{"user": "lena@demo.test", "currency": "usdt", "count": 0}})
	h.do("whitelist seed 400 currency", req{method: "POST", path: "/sandbox/whitelist", hdr: secret, want: 400,
		body: map[string]any{"user": "lena@demo.test", "currency": "doge", "count": 1}})
	h.do("whitelist seed 404", req{method: "POST", path: "/sandbox/whitelist", hdr: secret, want: 404,
		body: map[string]any{"user": "nobody", "currency": "usdt", "count": 1}})
	h.do("whitelist seed 401", req{method: "POST", path: "/sandbox/whitelist", hdr: withKey(), want: 401, badRequest: true,
		body: map[string]any{"user": "lena@demo.test", "currency": "usdt", "count": 1}})
}
