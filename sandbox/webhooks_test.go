package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// webhookAuth is the bearer token alone: webhook endpoints take no client key.
func webhookAuth(tok string) http.Header { return hdr("Authorization", "Bearer "+tok) }

func webhookList(t *testing.T, e *env, tok string) []map[string]any {
	t.Helper()
	r := e.do("GET", "/v1/webhooks", webhookAuth(tok), nil)
	want(t, r, 200, "")
	var out []map[string]any
	if err := json.Unmarshal(r.Raw, &out); err != nil {
		t.Fatalf("list is not an array: %s", r.Raw)
	}
	return out
}

func webhookData(t *testing.T, r resp) map[string]any {
	t.Helper()
	d, ok := r.JSON["data"].(map[string]any)
	if !ok || r.JSON["success"] != true {
		t.Fatalf("want {success: true, data}, got %s", r.Raw)
	}
	return d
}

func webhookCreateBody(name, url string, events ...string) map[string]any {
	if events == nil {
		events = []string{}
	}
	return map[string]any{"name": name, "url": url, "event_types": events, "is_active": true, "metadata": map[string]any{"team": "ops"}}
}

func TestWebhooksListSeededMaskedBearerOnly(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	hooks := webhookList(t, e, alice)
	if len(hooks) != 2 || hooks[0]["name"] != "Ledger sync" || hooks[1]["isActive"] != false {
		t.Fatalf("seeded hooks: %v", hooks)
	}
	for _, h := range hooks {
		key, _ := h["apiKey"].(string)
		if !strings.HasPrefix(key, "whsec_********") || len(key) != len("whsec_********")+4 {
			t.Fatalf("apiKey %q is not masked", key)
		}
		if h["tenant"] != "acme" {
			t.Fatalf("tenant %v", h["tenant"])
		}
	}
	// A client key is neither needed nor harmful.
	want(t, e.do("GET", "/v1/webhooks", bearer(alice), nil), 200, "")
	want(t, e.do("GET", "/v1/webhooks", nil, nil), 401, "Not authenticated")
	umar, _ := e.login("umar@demo.test")
	want(t, e.do("GET", "/v1/webhooks", webhookAuth(umar), nil), 403, "Not authorized")
}

func TestWebhooksProductionAnswers503Everywhere(t *testing.T) {
	e := newEnv(t, Options{})
	olga, _ := e.login("olga@acme.test", "x-client-key", "ck_live_acme")
	id := "00000000-0000-5000-8000-000000000000"
	for _, c := range []struct{ method, path string }{
		{"GET", "/v1/webhooks"}, {"POST", "/v1/webhooks"}, {"GET", "/v1/webhooks/" + id},
		{"PUT", "/v1/webhooks/" + id}, {"DELETE", "/v1/webhooks/" + id}, {"POST", "/v1/webhooks/" + id + "/rotate-key"},
	} {
		want(t, e.do(c.method, c.path, webhookAuth(olga), map[string]any{}), 503, webhookUnavailableMsg)
	}
}

func TestWebhooksCreateShowsKeyOnceThenMasked(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	r := e.do("POST", "/v1/webhooks", webhookAuth(alice), webhookCreateBody("Ops", "https://example.test/hooks", "card.activated", "card.activated"))
	want(t, r, 201, "")
	d := webhookData(t, r)
	key, _ := d["apiKey"].(string)
	if !strings.HasPrefix(key, "whsec_") || len(key) != 6+64 {
		t.Fatalf("create must show the full key once, got %q", key)
	}
	if ev := d["eventTypes"].([]any); len(ev) != 1 {
		t.Fatalf("duplicate event types kept: %v", ev)
	}
	id := d["id"].(string)
	g := e.do("GET", "/v1/webhooks/"+id, webhookAuth(alice), nil)
	want(t, g, 200, "")
	if g.str("apiKey") == key || !strings.HasSuffix(g.str("apiKey"), key[len(key)-4:]) {
		t.Fatalf("GET shows %q", g.str("apiKey"))
	}
	if n := len(webhookList(t, e, alice)); n != 3 {
		t.Fatalf("list has %d", n)
	}
	// Another tenant does not see it.
	gus, _ := e.login("gus@globex.test", "x-client-key", "ck_sandbox_globex")
	want(t, e.do("GET", "/v1/webhooks/"+id, webhookAuth(gus), nil), 404, "Webhook configuration not found")
	want(t, e.do("PUT", "/v1/webhooks/"+id, webhookAuth(gus), map[string]any{"is_active": false}), 404, "")
	// Another verified user of the same partner manages it.
	frank, _ := e.login("frank@demo.test")
	want(t, e.do("PUT", "/v1/webhooks/"+id, webhookAuth(frank), map[string]any{"is_active": false}), 200, "")
}

func TestWebhooksCreateValidationAndLimit(t *testing.T) {
	e := newEnv(t, Options{})
	gus, _ := e.login("gus@globex.test", "x-client-key", "ck_sandbox_globex")
	post := func(body any) resp { return e.do("POST", "/v1/webhooks", webhookAuth(gus), body) }
	want(t, post(map[string]any{"url": "https://a.test", "event_types": []string{"card.activated"}}), 400, "name is required")
	want(t, post(webhookCreateBody("x", "http://a.test", "card.activated")), 400, "url must use HTTPS")
	want(t, post(webhookCreateBody("x", "https://", "card.activated")), 400, "url must be a valid HTTPS URL")
	want(t, post(webhookCreateBody("x", "https://a.test")), 400, "event_types must contain at least one event type")
	want(t, post(webhookCreateBody("x", "https://a.test", "Card Activated")), 400, "")
	want(t, post(webhookCreateBody(strings.Repeat("n", 256), "https://a.test", "card.activated")), 400, "name must be at most 255 characters")
	want(t, post(`{"name":"x","url":"https://a.test","event_types":["card.activated"],"metadata":[1]}`), 400, "metadata must be an object")
	// globex has 4: the 5th is fine, the 6th refused.
	want(t, post(webhookCreateBody(strings.Repeat("n", 255), "https://a.test", "card.activated")), 201, "")
	want(t, post(webhookCreateBody("six", "https://a.test", "card.activated")), 400, "Maximum of 5 webhook configurations per partner reached")
}

func TestWebhooksUpdateOnlyGivenFieldsNeverTheKey(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	before := webhookList(t, e, alice)[0]
	id := before["id"].(string)
	put := func(body any) resp { return e.do("PUT", "/v1/webhooks/"+id, webhookAuth(alice), body) }
	e.clock.Advance(time.Hour)
	r := put(map[string]any{"is_active": false})
	want(t, r, 200, "")
	d := webhookData(t, r)
	if d["isActive"] != false || d["name"] != before["name"] || d["url"] != before["url"] || d["apiKey"] != before["apiKey"] ||
		d["updatedAt"] == before["updatedAt"] || d["createdAt"] != before["createdAt"] {
		t.Fatalf("PUT {is_active:false} changed more than that: %v -> %v", before, d)
	}
	r = put(map[string]any{"event_types": []string{"kyc.status.changed"}, "metadata": map[string]any{"a": 1}, "name": " New ", "url": "https://new.test/x"})
	d = webhookData(t, r)
	if d["name"] != "New" || d["url"] != "https://new.test/x" || len(d["eventTypes"].([]any)) != 1 || len(d["metadata"].(map[string]any)) != 1 {
		t.Fatalf("replace failed: %v", d)
	}
	want(t, put(map[string]any{"apiKey": "whsec_mine"}), 400, "The signing key cannot be set here; use POST /v1/webhooks/{id}/rotate-key")
	want(t, put(map[string]any{"url": "http://insecure.test"}), 400, "url must use HTTPS")
	want(t, put(map[string]any{"event_types": []string{}}), 400, "event_types must contain at least one event type")
	want(t, put(map[string]any{"name": ""}), 400, "name must not be empty")
	want(t, put(map[string]any{"metadata": nil}), 400, "")
	want(t, put(map[string]any{"is_active": "no"}), 400, "")
	want(t, e.do("PUT", "/v1/webhooks/nope", webhookAuth(alice), map[string]any{"is_active": true}), 404, "Webhook configuration not found")
}

func TestWebhooksRotateAndDelete(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	r := e.do("POST", "/v1/webhooks", webhookAuth(alice), webhookCreateBody("Ops", "https://example.test/hooks", "card.activated"))
	d := webhookData(t, r)
	id, first := d["id"].(string), d["apiKey"].(string)
	r = e.do("POST", "/v1/webhooks/"+id+"/rotate-key", webhookAuth(alice), nil)
	want(t, r, 200, "")
	second := webhookData(t, r)["apiKey"].(string)
	if second == first || len(second) != 70 {
		t.Fatalf("rotate: %q -> %q", first, second)
	}
	if g := e.do("GET", "/v1/webhooks/"+id, webhookAuth(alice), nil); !strings.HasSuffix(g.str("apiKey"), second[66:]) || strings.Contains(string(g.Raw), second) {
		t.Fatalf("after rotation GET shows %s", g.Raw)
	}
	want(t, e.do("POST", "/v1/webhooks/nope/rotate-key", webhookAuth(alice), nil), 404, "")
	want(t, e.do("DELETE", "/v1/webhooks/"+id, webhookAuth(alice), nil), 200, "")
	want(t, e.do("DELETE", "/v1/webhooks/"+id, webhookAuth(alice), nil), 404, "Webhook configuration not found")
	want(t, e.do("GET", "/v1/webhooks/"+id, webhookAuth(alice), nil), 404, "")
}

// webhookReceiver is an HTTPS receiver recording deliveries.
type webhookReceiver struct {
	ts  *httptest.Server
	got chan receivedDelivery
}

type receivedDelivery struct {
	header http.Header
	body   []byte
}

func newWhReceiver(t *testing.T, status int) *webhookReceiver {
	rc := &webhookReceiver{got: make(chan receivedDelivery, 16)}
	rc.ts = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.got <- receivedDelivery{r.Header.Clone(), b}
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.ts.Close)
	return rc
}

func (rc *webhookReceiver) next(t *testing.T) receivedDelivery {
	t.Helper()
	select {
	case g := <-rc.got:
		return g
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery within 5s")
	}
	return receivedDelivery{}
}

func (rc *webhookReceiver) none(t *testing.T) {
	t.Helper()
	select {
	case g := <-rc.got:
		t.Fatalf("unexpected delivery %s", g.body)
	case <-time.After(200 * time.Millisecond):
	}
}

func TestWebhookDeliveriesSignedToSubscribedActiveHooks(t *testing.T) {
	rc := newWhReceiver(t, 204)
	e := newEnv(t, Options{WebhookClient: rc.ts.Client()})
	alice, _ := e.login("alice@demo.test")
	r := e.do("POST", "/v1/webhooks", webhookAuth(alice), webhookCreateBody("Cards", rc.ts.URL+"/in", "card.frozen", "card.unfrozen"))
	d := webhookData(t, r)
	id, key := d["id"].(string), d["apiKey"].(string)
	// The seeded hooks are not subscribed to card.frozen: one delivery only.
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	g := rc.next(t)
	ts := g.header.Get("X-Timestamp")
	if ts != "1772366400" { // t0 in unix seconds: the sandbox clock signs
		t.Fatalf("X-Timestamp %q", ts)
	}
	if sig := g.header.Get("X-Signature"); sig != WebhookSignature(key, ts, g.body) {
		t.Fatalf("signature %q does not verify", sig)
	}
	var ev map[string]any
	if err := json.Unmarshal(g.body, &ev); err != nil {
		t.Fatal(err)
	}
	obj, _ := ev["event_object"].(map[string]any)
	if ev["event_type"] != "card.frozen" || ev["event_category"] != "card" || ev["api_version"] != "v1" || ev["user_id"] == "" ||
		ev["event_id"] == "" || obj["status"] != "FROZEN" || ev["event_object_id"] != obj["id"] || ev["occurred_at"] != "2026-03-01T12:00:00Z" {
		t.Fatalf("event %s", g.body)
	}
	rc.none(t)
	// lastDelivery shows the receiver's answer.
	deadline := time.Now().Add(2 * time.Second)
	for {
		g := e.do("GET", "/v1/webhooks/"+id, webhookAuth(alice), nil)
		if ld, _ := g.JSON["lastDelivery"].(map[string]any); ld != nil && ld["status"] == float64(204) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("lastDelivery not recorded: %s", g.Raw)
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Inactive: nothing. Active again after a rotation: signed with the new key.
	want(t, e.do("PUT", "/v1/webhooks/"+id, webhookAuth(alice), map[string]any{"is_active": false}), 200, "")
	want(t, e.do("POST", "/v1/card/unfreeze", bearer(alice), nil), 200, "")
	rc.none(t)
	want(t, e.do("PUT", "/v1/webhooks/"+id, webhookAuth(alice), map[string]any{"is_active": true}), 200, "")
	newKey := webhookData(t, e.do("POST", "/v1/webhooks/"+id+"/rotate-key", webhookAuth(alice), nil))["apiKey"].(string)
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	g = rc.next(t)
	ts = g.header.Get("X-Timestamp")
	if g.header.Get("X-Signature") != WebhookSignature(newKey, ts, g.body) || g.header.Get("X-Signature") == WebhookSignature(key, ts, g.body) {
		t.Fatal("delivery after rotation is not signed with the new key only")
	}
	// A failed freeze (already frozen) emits nothing.
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 400, "Card is already frozen")
	rc.none(t)
}

func TestWebhookDefaultClientDeliversToLoopbackOnly(t *testing.T) {
	e := newEnv(t, Options{})
	nora, _ := e.login("nora@demo.test")
	d := webhookData(t, e.do("POST", "/v1/webhooks", webhookAuth(nora), webhookCreateBody("Ext", "https://example.test/hooks", "card.activated")))
	want(t, e.do("POST", "/v1/card/order", bearer(nora), map[string]string{"type": "VIRTUAL"}), 200, "")
	deadline := time.Now().Add(2 * time.Second)
	for {
		g := e.do("GET", "/v1/webhooks/"+d["id"].(string), webhookAuth(nora), nil)
		if ld, _ := g.JSON["lastDelivery"].(map[string]any); ld != nil {
			if ld["eventType"] != "card.activated" || !strings.Contains(ld["error"].(string), "loopback hosts only") {
				t.Fatalf("lastDelivery %v", ld)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no lastDelivery: %s", g.Raw)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
