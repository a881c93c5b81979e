package sandbox_test

import (
	"strings"
	"testing"
)

func init() { familyScripts = append(familyScripts, webhooksContract) }

// webhooksContract exercises the webhook endpoints with the bearer token
// only: list and update (interface: 200, 400, 401, 403, 404, 503) and the
// design operations create, get, delete and rotate-key.
func webhooksContract(t *testing.T, h *harness, login loginFunc) {
	alice := login("alice@demo.test")
	umar := login("umar@demo.test")
	olga := login("olga@acme.test", "x-client-key", "ck_live_acme")
	gus := login("gus@globex.test", "x-client-key", "ck_sandbox_globex")
	body := func(name string) map[string]any {
		return map[string]any{"name": name, "url": "https://example.test/hooks", "event_types": []string{"card.activated"},
			"is_active": true, "metadata": map[string]any{"team": "ops"}}
	}

	// ---------------------------------------------------------------- list
	r := h.do("webhooks 200", req{method: "GET", path: "/v1/webhooks", hdr: bearerOnly(alice), want: 200})
	checkf(t, len(r.arr()) == 2, "alice's partner has %d webhooks, want 2 seeded", len(r.arr()))
	h.do("webhooks 401", req{method: "GET", path: "/v1/webhooks", want: 401})
	h.do("webhooks 403 unverified", req{method: "GET", path: "/v1/webhooks", hdr: bearerOnly(umar), want: 403})
	h.do("webhooks 503 production", req{method: "GET", path: "/v1/webhooks", hdr: bearerOnly(olga), want: 503})

	// ---------------------------------------------------------------- create (design)
	r = h.do("webhook create 201", req{method: "POST", path: "/v1/webhooks", hdr: bearerOnly(alice), body: body("Ops"), want: 201})
	data, _ := r.obj()["data"].(map[string]any)
	id, _ := data["id"].(string)
	key, _ := data["apiKey"].(string)
	checkf(t, strings.HasPrefix(key, "whsec_") && !strings.Contains(key, "*"), "create shows the full key once, got %q", key)
	h.do("webhook create 400 http url", req{method: "POST", path: "/v1/webhooks", hdr: bearerOnly(alice),
		body: map[string]any{"name": "x", "url": "http://example.test", "event_types": []string{"card.activated"}}, want: 400, badRequest: true})
	h.do("webhook create 400 no name", req{method: "POST", path: "/v1/webhooks", hdr: bearerOnly(alice),
		body: map[string]any{"url": "https://example.test", "event_types": []string{"card.activated"}}, want: 400, badRequest: true})
	h.do("webhook create 401", req{method: "POST", path: "/v1/webhooks", body: body("x"), want: 401})
	h.do("webhook create 403", req{method: "POST", path: "/v1/webhooks", hdr: bearerOnly(umar), body: body("x"), want: 403})
	h.do("webhook create 503", req{method: "POST", path: "/v1/webhooks", hdr: bearerOnly(olga), body: body("x"), want: 503})
	h.do("webhook create 201 fifth", req{method: "POST", path: "/v1/webhooks", hdr: bearerOnly(gus), body: body("Fifth"), want: 201})
	h.do("webhook create 400 sixth", req{method: "POST", path: "/v1/webhooks", hdr: bearerOnly(gus), body: body("Sixth"), want: 400})

	// ---------------------------------------------------------------- get (design)
	r = h.do("webhook get 200", req{method: "GET", path: "/v1/webhooks/" + id, hdr: bearerOnly(alice), want: 200})
	checkf(t, r.str("apiKey") != key && strings.Contains(r.str("apiKey"), "*"), "GET shows the key %q unmasked", r.str("apiKey"))
	h.do("webhook get 404", req{method: "GET", path: "/v1/webhooks/" + unknownID, hdr: bearerOnly(alice), want: 404})
	h.do("webhook get 404 other tenant", req{method: "GET", path: "/v1/webhooks/" + id, hdr: bearerOnly(gus), want: 404})
	h.do("webhook get 401", req{method: "GET", path: "/v1/webhooks/" + id, want: 401})
	h.do("webhook get 403", req{method: "GET", path: "/v1/webhooks/" + id, hdr: bearerOnly(umar), want: 403})
	h.do("webhook get 503", req{method: "GET", path: "/v1/webhooks/" + id, hdr: bearerOnly(olga), want: 503})

	// ---------------------------------------------------------------- update (interface)
	put := func(name, tok, target string, b any, want int, bad bool) res {
		return h.do(name, req{method: "PUT", path: "/v1/webhooks/" + target, hdr: bearerOnly(tok), body: b, want: want, badRequest: bad})
	}
	r = put("webhook put 200", alice, id, map[string]any{"is_active": false}, 200, false)
	data, _ = r.obj()["data"].(map[string]any)
	checkf(t, data["isActive"] == false && data["name"] == "Ops" && data["apiKey"] != key, "PUT answer %s", r.raw)
	put("webhook put 200 all fields", alice, id, map[string]any{"name": "Ops 2", "url": "https://example.test/v2",
		"event_types": []string{"card.activated", "kyc.status.changed"}, "is_active": true, "metadata": map[string]any{}}, 200, false)
	put("webhook put 400 http", alice, id, map[string]any{"url": "http://example.test"}, 400, true)
	put("webhook put 400 no events", alice, id, map[string]any{"event_types": []string{}}, 400, true)
	put("webhook put 400 long name", alice, id, map[string]any{"name": strings.Repeat("n", 256)}, 400, true)
	put("webhook put 400 bad event", alice, id, map[string]any{"event_types": []string{"Not An Event"}}, 400, false)
	put("webhook put 400 key", alice, id, map[string]any{"apiKey": "whsec_mine"}, 400, false)
	put("webhook put 404", alice, unknownID, map[string]any{"is_active": true}, 404, false)
	put("webhook put 404 other tenant", gus, id, map[string]any{"is_active": true}, 404, false)
	put("webhook put 401", "nope", id, map[string]any{"is_active": true}, 401, false)
	put("webhook put 403", umar, id, map[string]any{"is_active": true}, 403, false)
	put("webhook put 503", olga, unknownID, map[string]any{"is_active": true}, 503, false)

	// ---------------------------------------------------------------- rotate-key (design)
	r = h.do("webhook rotate 200", req{method: "POST", path: "/v1/webhooks/" + id + "/rotate-key", hdr: bearerOnly(alice), want: 200})
	data, _ = r.obj()["data"].(map[string]any)
	checkf(t, data["apiKey"] != key && !strings.Contains(data["apiKey"].(string), "*"), "rotate answer %s", r.raw)
	h.do("webhook rotate 404", req{method: "POST", path: "/v1/webhooks/" + unknownID + "/rotate-key", hdr: bearerOnly(alice), want: 404})
	h.do("webhook rotate 401", req{method: "POST", path: "/v1/webhooks/" + id + "/rotate-key", want: 401})
	h.do("webhook rotate 403", req{method: "POST", path: "/v1/webhooks/" + id + "/rotate-key", hdr: bearerOnly(umar), want: 403})
	h.do("webhook rotate 503", req{method: "POST", path: "/v1/webhooks/" + id + "/rotate-key", hdr: bearerOnly(olga), want: 503})

	// ---------------------------------------------------------------- delete (design)
	h.do("webhook delete 401", req{method: "DELETE", path: "/v1/webhooks/" + id, want: 401})
	h.do("webhook delete 403", req{method: "DELETE", path: "/v1/webhooks/" + id, hdr: bearerOnly(umar), want: 403})
	h.do("webhook delete 503", req{method: "DELETE", path: "/v1/webhooks/" + id, hdr: bearerOnly(olga), want: 503})
	h.do("webhook delete 200", req{method: "DELETE", path: "/v1/webhooks/" + id, hdr: bearerOnly(alice), want: 200})
	h.do("webhook delete 404", req{method: "DELETE", path: "/v1/webhooks/" + id, hdr: bearerOnly(alice), want: 404})
}
