package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// history reads GET /sandbox/events with query.
func history(t *testing.T, e *env, query url.Values) []keptEvent {
	t.Helper()
	r := e.do("GET", "/sandbox/events?"+query.Encode(), secretHdr(), nil)
	want(t, r, http.StatusOK, "")
	var out struct{ Events []keptEvent }
	if err := json.Unmarshal(r.Raw, &out); err != nil {
		t.Fatal(err)
	}
	return out.Events
}

// trigger sends a test event about user and returns its id.
func trigger(t *testing.T, e *env, eventType, user string) string {
	t.Helper()
	r := e.do("POST", "/sandbox/trigger", secretHdr(), map[string]any{"event_type": eventType, "user": user})
	want(t, r, http.StatusOK, "")
	return r.str("eventId")
}

func TestEventHistoryListsByTypeUserAndTime(t *testing.T) {
	e := newEnv(t, Options{})
	first := trigger(t, e, "card.frozen", "alice@demo.test")
	e.clock.Advance(time.Hour)
	second := trigger(t, e, "kyc.status.changed", "frank@demo.test")
	third := trigger(t, e, "card.unfrozen", "alice@demo.test")

	ids := func(events []keptEvent) string {
		var out []string
		for _, ev := range events {
			out = append(out, ev.EventID)
		}
		return fmt.Sprint(out)
	}
	cases := []struct {
		query url.Values
		want  []string
	}{
		{url.Values{}, []string{first, second, third}},
		{url.Values{"type": {"card.*"}}, []string{first, third}},
		{url.Values{"type": {"kyc.status.changed"}}, []string{second}},
		{url.Values{"user": {"alice@demo.test"}}, []string{first, third}},
		{url.Values{"since": {"30m"}}, []string{second, third}},
		{url.Values{"after": {first}}, []string{second, third}},
		{url.Values{"limit": {"1"}}, []string{third}},
	}
	for _, tc := range cases {
		if got := ids(history(t, e, tc.query)); got != fmt.Sprint(tc.want) {
			t.Errorf("%v: %s, want %v", tc.query, got, tc.want)
		}
	}
	all := history(t, e, url.Values{})
	var body webhookEvent
	if err := json.Unmarshal(all[0].Event, &body); err != nil || body.EventID != first || body.EventType != "card.frozen" {
		t.Fatalf("the kept body: %s (%v)", all[0].Event, err)
	}
	for _, bad := range []string{"since=soon", "limit=0", "type=[", "user=nobody@demo.test", "after=no-such-event"} {
		if r := e.do("GET", "/sandbox/events?"+bad, secretHdr(), nil); r.Status != http.StatusBadRequest && r.Status != http.StatusNotFound {
			t.Errorf("%s: %d %s", bad, r.Status, r.Raw)
		}
	}
}

func TestEventHistoryIsBounded(t *testing.T) {
	e := newEnv(t, Options{})
	var last string
	for range eventHistorySize + 5 {
		last = trigger(t, e, "card.frozen", "")
	}
	all := history(t, e, url.Values{})
	if len(all) != eventHistorySize || all[len(all)-1].EventID != last {
		t.Fatalf("%d kept, last %s", len(all), all[len(all)-1].EventID)
	}
}

func TestEventHistorySurvivesARestart(t *testing.T) {
	dir := t.TempDir()
	st := openTestStore(t, dir)
	e := newEnv(t, Options{Store: st})
	id := trigger(t, e, "card.frozen", "alice@demo.test")
	e.s.Close()
	st.Close()

	st2 := openTestStore(t, dir)
	again := New(Options{Store: st2, Clock: NewManualClock(t0)})
	defer again.Close()
	again.mu.Lock()
	events := again.webhookPartnerOf(again.backends[backendKey{"acme", "sandbox", "eu"}]).events
	again.mu.Unlock()
	if len(events) != 1 || events[0].EventID != id {
		t.Fatalf("after a restart: %+v", events)
	}
}

// A replay delivers the missed events one after the other, in the order
// they happened, to the webhook named, and only the types it subscribes to.
func TestReplayDeliversMissedEventsInOrder(t *testing.T) {
	e := newEnv(t, Options{})
	var ids []string
	for _, eventType := range []string{"card.frozen", "card.unfrozen", "kyc.status.changed", "card.frozen"} {
		ids = append(ids, trigger(t, e, eventType, "alice@demo.test"))
	}
	rc := newLoopbackReceiver(t)
	alice, _ := e.login("alice@demo.test")
	hookID, key := subscribe(t, e, alice, rc.srv.URL+"/hooks", "card.frozen", "card.unfrozen")
	r := e.do("POST", "/sandbox/events/replay", secretHdr(), map[string]any{"webhookId": hookID, "since": "1h"})
	want(t, r, http.StatusOK, "")
	for i, want := range []string{ids[0], ids[1], ids[3]} {
		var g receivedDelivery
		select {
		case g = <-rc.got:
		case <-time.After(5 * time.Second):
			t.Fatalf("delivery %d did not arrive", i)
		}
		var ev webhookEvent
		_ = json.Unmarshal(g.body, &ev)
		if ev.EventID != want || g.header.Get("X-Signature") != WebhookSignature(key, g.header.Get("X-Timestamp"), g.body) {
			t.Fatalf("delivery %d: %s, want %s", i, ev.EventID, want)
		}
	}
	if list, _ := r.JSON["events"].([]any); len(list) != 3 || list[2].(map[string]any)["state"] != webhookDelivered {
		t.Fatalf("answer: %s", r.Raw)
	}
	if r := e.do("POST", "/sandbox/events/replay", secretHdr(), map[string]any{"webhookId": hookID}); r.Status != http.StatusBadRequest {
		t.Fatalf("a replay of nothing named: %d %s", r.Status, r.Raw)
	}
}
