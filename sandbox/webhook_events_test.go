package sandbox

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// loopbackReceiver is a plain-HTTP receiver on 127.0.0.1, reached by the
// sandbox's default (loopback-only) client. It answers the statuses in
// script in turn, then 204.
type loopbackReceiver struct {
	srv    *httptest.Server
	got    chan receivedDelivery
	mu     sync.Mutex
	script []int
}

func newLoopbackReceiver(t *testing.T, script ...int) *loopbackReceiver {
	rc := &loopbackReceiver{got: make(chan receivedDelivery, 64), script: script}
	rc.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rc.got <- receivedDelivery{r.Header.Clone(), b}
		rc.mu.Lock()
		status := http.StatusNoContent
		if len(rc.script) > 0 {
			status, rc.script = rc.script[0], rc.script[1:]
		}
		rc.mu.Unlock()
		w.WriteHeader(status)
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

// subscribe creates a configuration for url and returns its id and key.
func subscribe(t *testing.T, e *env, tok, url string, events ...string) (string, string) {
	t.Helper()
	d := webhookData(t, e.do("POST", "/v1/webhooks", webhookAuth(tok), webhookCreateBody("Local", url, events...)))
	return d["id"].(string), d["apiKey"].(string)
}

// event is a decoded delivery body: the sandbox's own webhookEvent, with the
// object as a map the tests can index. The body's field names are checked
// without this type in TestWebhookDeliveriesSignedToSubscribedActiveHooks.
type event struct {
	webhookEvent
	EventObject map[string]any `json:"event_object"`
}

// collect reads n deliveries, checks each signature under key, and
// returns them by event type.
func (rc *loopbackReceiver) collect(t *testing.T, key string, n int) map[string][]event {
	t.Helper()
	out := map[string][]event{}
	for range n {
		var g receivedDelivery
		select {
		case g = <-rc.got:
		case <-time.After(5 * time.Second):
			t.Fatalf("only %d of %d deliveries arrived: %v", len(out), n, out)
		}
		ts := g.header.Get("X-Timestamp")
		if g.header.Get("X-Signature") != WebhookSignature(key, ts, g.body) {
			t.Fatalf("delivery not signed with the key: %s", g.body)
		}
		var ev event
		if err := json.Unmarshal(g.body, &ev); err != nil {
			t.Fatalf("body %s: %v", g.body, err)
		}
		if ev.APIVersion != "v1" || ev.EventID == "" || ev.EventObjectID == "" || ev.EventObject == nil ||
			ev.EventCategory != strings.SplitN(ev.EventType, ".", 2)[0] || ev.OccurredAt == "" {
			t.Fatalf("event envelope %s", g.body)
		}
		out[ev.EventType] = append(out[ev.EventType], ev)
	}
	return out
}

func TestSandboxEmitsEachEventType(t *testing.T) {
	e := newEnv(t, Options{})
	rc := newLoopbackReceiver(t)
	alice, _ := e.login("alice@demo.test")
	nora, _ := e.login("nora@demo.test")
	bruno, _ := e.login("bruno@demo.test")
	_, key := subscribe(t, e, alice, rc.srv.URL+"/hooks", WebhookEventTypes...)

	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	want(t, e.do("POST", "/v1/card/unfreeze", bearer(alice), nil), 200, "")
	want(t, e.do("POST", "/v1/card/unfreeze", bearer(alice), nil), 400, "") // no change, no event
	want(t, e.do("POST", "/v1/card/order", bearer(bruno), map[string]string{"type": "VIRTUAL"}), 200, "")
	got := rc.collect(t, key, 4)
	if got["card.frozen"][0].EventObject["status"] != "FROZEN" || got["card.unfrozen"][0].EventObject["status"] != "ACTIVE" ||
		got["card.ordered"][0].UserID != DemoUserID("bruno@demo.test") || got["card.activated"][0].EventObject["status"] != "ACTIVE" {
		t.Fatalf("card events %+v", got)
	}

	// A paid card order: the status change is announced on the next
	// read, with the card it issued.
	order := ordPlace(t, e, nora, "prod_virtual_card").str("orderId")
	e.clock.Advance(6 * time.Second)
	ordStatus(t, e, nora, order)
	ordStatus(t, e, nora, order) // read again: nothing new
	got = rc.collect(t, key, 3)
	changed := got["order.status.changed"][0].EventObject
	if changed["status"] != "COMPLETED" || changed["previousStatus"] != "STARTED" || changed["orderId"] != order ||
		len(got["card.ordered"]) != 1 || len(got["card.activated"]) != 1 {
		t.Fatalf("order events %+v", got)
	}

	want(t, e.do("POST", "/sandbox/kyc", secretHdr(), map[string]string{"user": "pia@demo.test", "verificationState": "VERIFIED"}), 200, "")
	got = rc.collect(t, key, 1)
	if kyc := got["kyc.status.changed"][0]; kyc.UserID != DemoUserID("pia@demo.test") ||
		kyc.EventObject["previousVerificationState"] != "PENDING" || kyc.EventObject["verificationState"] != "VERIFIED" {
		t.Fatalf("kyc event %+v", got)
	}

	// Consent: linking grants the set's granted consents to the user.
	r := e.do("GET", "/v2/consent/onboarding/onb-demo-001", ck(), nil)
	set := r.JSON["consentSets"].([]any)[0].(map[string]any)
	granted := 0
	for _, k := range set["consents"].([]any) {
		if k.(map[string]any)["consentStatus"] == "granted" {
			granted++
		}
	}
	noraID := DemoUserID("nora@demo.test")
	want(t, e.do("PATCH", "/v2/consent/onboarding/"+set["consentSetId"].(string), secretHdr(), map[string]string{"userId": noraID}), 200, "")
	got = rc.collect(t, key, granted)
	if len(got["consent.granted"]) != granted || granted == 0 || got["consent.granted"][0].UserID != noraID {
		t.Fatalf("%d granted consents, events %+v", granted, got)
	}
	consentID := got["consent.granted"][0].EventObject["consentId"].(string)
	r = e.do("DELETE", "/v2/consent/consentSet/"+set["consentSetId"].(string)+"/consent/"+consentID, secretHdr(), nil)
	want(t, r, 200, "")
	got = rc.collect(t, key, 1)
	if rv := got["consent.revoked"][0]; rv.UserID != noraID || rv.EventObject["revokedConsentId"] != consentID || rv.EventObjectID != r.str("consentId") {
		t.Fatalf("revoke event %+v", got)
	}

	tok := e.do("GET", tokenPath(""), bearer(nora), nil)
	want(t, e.do("POST", "/v1/delegation/evm/post-approval", bearer(nora), approval(tok)), 200, "")
	got = rc.collect(t, key, 1)
	if d := got["delegation.completed"][0]; d.EventObject["address"] != tEVM || d.EventObject["chain"] != "evm" {
		t.Fatalf("delegation event %+v", got)
	}

	r = e.do("POST", "/v1/wallet/credit/withdraw", bearer(alice), map[string]any{"amount": "50.5"})
	want(t, r, 200, "")
	got = rc.collect(t, key, 1)
	if w := got["withdrawal.sent"][0]; w.EventObjectID != r.str("txHash") || w.EventObject["amount"] != "50.50" || w.EventObject["fee"] != "0.45" {
		t.Fatalf("withdrawal event %+v", got)
	}
	select {
	case g := <-rc.got:
		t.Fatalf("unexpected extra delivery %s", g.body)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestWebhookDeliveriesEndpoint(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	seeded := webhookList(t, e, alice)[0]["id"].(string)
	r := e.do("GET", "/v1/webhooks/"+seeded+"/deliveries", webhookAuth(alice), nil)
	want(t, r, 200, "")
	if !strings.Contains(string(r.Raw), `"deliveries":[]`) {
		t.Fatalf("empty history %s", r.Raw)
	}
	want(t, e.do("GET", "/v1/webhooks/"+seeded+"/deliveries", nil, nil), 401, "Not authenticated")
	want(t, e.do("GET", "/v1/webhooks/00000000-0000-5000-8000-000000000000/deliveries", webhookAuth(alice), nil), 404, "Webhook configuration not found")
}

func TestTriggerSendsATestEventOfAnyType(t *testing.T) {
	e := newEnv(t, Options{})
	rc := newLoopbackReceiver(t)
	alice, _ := e.login("alice@demo.test")
	_, key := subscribe(t, e, alice, rc.srv.URL, "partner.custom_event", "card.frozen")

	want(t, e.do("POST", "/sandbox/trigger", ck(), map[string]string{"event_type": "card.frozen"}), 401, "")
	want(t, e.do("POST", "/sandbox/trigger", secretHdr(), map[string]string{"event_type": "Card Frozen"}), 400, "")
	want(t, e.do("POST", "/sandbox/trigger", secretHdr(), map[string]string{"event_type": "card.frozen", "user": "nobody"}), 404, "")

	r := e.do("POST", "/sandbox/trigger", secretHdr(), map[string]string{"event_type": "partner.custom_event", "user": "nora@demo.test"})
	want(t, r, 200, "")
	if r.str("userId") != DemoUserID("nora@demo.test") || len(r.JSON["deliveries"].([]any)) != 1 {
		t.Fatalf("trigger answer %s", r.Raw)
	}
	ev := rc.collect(t, key, 1)["partner.custom_event"][0]
	if ev.EventID != r.str("eventId") || ev.EventObject["test"] != true {
		t.Fatalf("test event %+v", ev)
	}
	// A type nobody subscribed to goes nowhere, and says so.
	r = e.do("POST", "/sandbox/trigger", secretHdr(), map[string]string{"event_type": "card.unfrozen"})
	want(t, r, 200, "")
	if d, ok := r.JSON["deliveries"].([]any); !ok || len(d) != 0 {
		t.Fatalf("trigger answer %s", r.Raw)
	}
	// The Go method: alice's real card is the object.
	res, err := e.s.Trigger("card.frozen", "alice@demo.test")
	if err != nil || len(res.Deliveries) != 1 {
		t.Fatalf("Trigger: %+v %v", res, err)
	}
	if ev := rc.collect(t, key, 1)["card.frozen"][0]; ev.EventObject["panLast4"] != "4242" || ev.EventObject["test"] != true {
		t.Fatalf("card test event %+v", ev)
	}
	if _, err := e.s.Trigger("card.frozen", "nobody"); err == nil {
		t.Fatal("unknown user accepted")
	}
}

func TestTriggerSamplesEveryDocumentedType(t *testing.T) {
	e := newEnv(t, Options{})
	rc := newLoopbackReceiver(t)
	nora, _ := e.login("nora@demo.test")
	_, key := subscribe(t, e, nora, rc.srv.URL, WebhookEventTypes...)
	for _, typ := range WebhookEventTypes {
		if _, err := e.s.Trigger(typ, "nora@demo.test"); err != nil {
			t.Fatal(err)
		}
	}
	got := rc.collect(t, key, len(WebhookEventTypes))
	types := make([]string, 0, len(got))
	for typ := range got {
		types = append(types, typ)
	}
	sort.Strings(types)
	wantTypes := slices.Sorted(slices.Values(WebhookEventTypes))
	if !slices.Equal(types, wantTypes) {
		t.Fatalf("types %v, want %v", types, wantTypes)
	}
}

func TestKYCRoute(t *testing.T) {
	e := newEnv(t, Options{})
	want(t, e.do("POST", "/sandbox/kyc", secretHdr(), map[string]string{"user": "pia@demo.test", "verificationState": "DONE"}), 400, "")
	r := e.do("POST", "/sandbox/kyc", secretHdr(), map[string]string{"user": "pia@demo.test", "verificationState": "verified"})
	want(t, r, 200, "")
	pia, _ := e.login("pia@demo.test")
	if u := e.do("GET", "/v1/user", bearer(pia), nil); u.str("verificationState") != "VERIFIED" {
		t.Fatalf("user after kyc: %s", u.Raw)
	}
}

func TestPlainHTTPWebhookURLsOnlyForLoopback(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	for url, status := range map[string]int{"http://127.0.0.1:9/in": 201, "http://localhost:9/in": 201, "http://[::1]:9/in": 201, "http://10.0.0.1/in": 400} {
		r := e.do("POST", "/v1/webhooks", webhookAuth(alice), webhookCreateBody("L", url, "card.frozen"))
		if r.Status != status {
			t.Errorf("%s: %d %s", url, r.Status, r.Raw)
		}
		if r.Status == 201 {
			want(t, e.do("DELETE", "/v1/webhooks/"+webhookData(t, r)["id"].(string), webhookAuth(alice), nil), 200, "")
		}
	}
}
