package sandbox

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// receiver is a loopback webhook receiver that hands over each body.
func receiver(t *testing.T) (string, <-chan map[string]any) {
	t.Helper()
	got := make(chan map[string]any, 16)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var ev map[string]any
		_ = json.Unmarshal(b, &ev)
		got <- ev
	}))
	t.Cleanup(ts.Close)
	return ts.URL, got
}

// next waits for one delivery.
func next(t *testing.T, got <-chan map[string]any) map[string]any {
	t.Helper()
	select {
	case ev := <-got:
		return ev
	case <-time.After(10 * time.Second):
		t.Fatal("no delivery arrived")
	}
	return nil
}

// subscribeAlice creates a webhook for eventType to url as alice.
func subscribeAlice(t *testing.T, e *env, url, eventType string) string {
	t.Helper()
	alice, _ := e.login("alice@demo.test")
	r := e.do("POST", "/v1/webhooks", bearer(alice), map[string]any{"name": "Receiver", "url": url, "event_types": []string{eventType}})
	want(t, r, 201, "")
	return r.JSON["data"].(map[string]any)["id"].(string)
}

func TestTriggerFixtureAndOverridesShapeTheDeliveredEvent(t *testing.T) {
	e := newEnv(t, Options{})
	url, got := receiver(t)
	subscribeAlice(t, e, url, "card.frozen")
	r := e.do("POST", "/sandbox/trigger", secretHdr(), map[string]any{"event_type": "card.frozen",
		"fixture": map[string]any{"event_object_id": "card-from-fixture", "event_object": map[string]any{"status": "ACTIVE", "items": []any{map[string]any{"n": 1}}}},
		"overrides": []map[string]any{
			{"path": "event_object.status", "value": "FROZEN"},
			{"path": "event_object.items.0.n", "value": 2},
			{"path": "event_object.reason.code", "value": "lost"},
		}})
	want(t, r, 200, "")
	ev := next(t, got)
	object := ev["event_object"].(map[string]any)
	if object["status"] != "FROZEN" || ev["event_object_id"] != "card-from-fixture" || ev["event_id"] != r.str("eventId") {
		t.Fatalf("delivered %v", ev)
	}
	if object["items"].([]any)[0].(map[string]any)["n"] != 2.0 || object["reason"].(map[string]any)["code"] != "lost" {
		t.Fatalf("nested overrides not applied: %v", object)
	}
	for override, msg := range map[string]string{
		"event_id":                 "its own event_id",
		"event_type":               "the event type is the one triggered",
		"user_id.x":                "user_id is a string, not an object",
		"event_object.items.5.n":   "not an index",
		"nonsense":                 `no field "nonsense"`,
		"event_object..status":     "empty path segment",
		"event_object_id":          "event_object_id must be a string",
		"event_object.status.deep": "is inside a string",
	} {
		value := any("x")
		if override == "event_object_id" {
			value = 5
		}
		r := e.do("POST", "/sandbox/trigger", secretHdr(), map[string]any{"event_type": "card.frozen",
			"fixture":   map[string]any{"event_object": map[string]any{"status": "ACTIVE", "items": []any{}}},
			"overrides": []map[string]any{{"path": override, "value": value}}})
		if r.Status != 400 || !strings.Contains(r.str("message"), msg) {
			t.Errorf("override %s: %d %s, want 400 …%s…", override, r.Status, r.Raw, msg)
		}
	}
	r = e.do("POST", "/sandbox/trigger", secretHdr(), map[string]any{"event_type": "card.frozen", "fixture": map[string]any{"colour": "red"}})
	if r.Status != 400 || !strings.Contains(r.str("message"), `unknown field "colour"`) {
		t.Fatalf("fixture with an unknown field: %d %s", r.Status, r.Raw)
	}
}

func TestResendDeliversTheSameEventAgain(t *testing.T) {
	e := newEnv(t, Options{})
	url, got := receiver(t)
	hook := subscribeAlice(t, e, url, "card.frozen")
	r := e.do("POST", "/sandbox/trigger", secretHdr(), map[string]any{"event_type": "card.frozen"})
	want(t, r, 200, "")
	first := next(t, got)
	r = e.do("POST", "/sandbox/events/"+r.str("eventId")+"/resend", secretHdr(), map[string]any{"webhookId": hook})
	want(t, r, 200, "")
	again := next(t, got)
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(again)
	if string(a) != string(b) || r.str("eventType") != "card.frozen" {
		t.Fatalf("resent %s\n   first %s", b, a)
	}
	want(t, e.do("POST", "/sandbox/events/nope/resend", secretHdr(), nil), 404, "No webhook keeps a delivery of event nope (each keeps its latest 50)")
	want(t, e.do("POST", "/sandbox/events/"+r.str("eventId")+"/resend", secretHdr(), map[string]any{"webhookId": "other"}), 404, "")
}

func TestLogsStreamTheAnsweredRequestsOfTheTenant(t *testing.T) {
	e := newEnv(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", e.ts.URL+"/sandbox/logs", nil)
	req.Header = secretHdr()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != "application/x-ndjson" {
		t.Fatalf("logs answer %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	lines := bufio.NewScanner(res.Body)
	read := func() AnsweredRequest {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("the stream ended: %v", lines.Err())
		}
		if strings.Contains(lines.Text(), "demo-pass") || strings.Contains(lines.Text(), "sk_") {
			t.Fatalf("a secret in the log: %s", lines.Text())
		}
		var a AnsweredRequest
		if err := json.Unmarshal(lines.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	e.login("alice@demo.test")
	if a := read(); a.Method != "POST" || a.Path != "/v1/auth/login" || a.Status != 200 || a.Tenant != "acme/sandbox/eu" {
		t.Fatalf("logged %+v", a)
	}
	e.do("GET", "/v1/wallet/whitelist?currency=secret-value", hdr("x-client-key", "ck_sandbox_globex"), nil) // another tenant: not shown
	e.do("GET", "/v1/card/status?token=hidden", hdr("x-client-key", "ck_nope"), nil)                         // no tenant's: shown to nobody
	bad := hdr("x-client-key", DemoClientKey)
	bad.Set("Authorization", "Bearer not-a-token")
	e.do("GET", "/v1/webhooks", bad, nil) // bearer only: refused before its backend was known, with the tenant's key
	if a := read(); a.Path != "/v1/webhooks" || a.Status != 401 || a.Tenant != "acme/sandbox/" {
		t.Fatalf("logged %+v, want the tenant's refused request only, neither globex's nor an unknown key's", a)
	}
}
