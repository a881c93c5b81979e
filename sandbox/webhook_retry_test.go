package sandbox

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// deliveries polls GET /v1/webhooks/{id}/deliveries until done says so.
func deliveries(t *testing.T, e *env, tok, id string, done func([]webhookDeliveryJSON) bool) []webhookDeliveryJSON {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		r := e.do("GET", "/v1/webhooks/"+id+"/deliveries", webhookAuth(tok), nil)
		want(t, r, 200, "")
		var out struct {
			WebhookID  string                `json:"webhookId"`
			Deliveries []webhookDeliveryJSON `json:"deliveries"`
		}
		if err := json.Unmarshal(r.Raw, &out); err != nil || out.WebhookID != id {
			t.Fatalf("deliveries %s: %v", r.Raw, err)
		}
		if done(out.Deliveries) {
			return out.Deliveries
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries never settled: %s", r.Raw)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func settled(ds []webhookDeliveryJSON) bool {
	return len(ds) > 0 && (ds[0].State == webhookDelivered || ds[0].State == webhookFailed)
}

func TestWebhookRetriesWithBackoffAndRecordsEveryAttempt(t *testing.T) {
	e := newEnv(t, Options{})
	rc := newLoopbackReceiver(t, 500, 502)
	alice, _ := e.login("alice@demo.test")
	id, _ := subscribe(t, e, alice, rc.srv.URL, "card.frozen")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	ds := deliveries(t, e, alice, id, settled)
	d := ds[0]
	if d.State != webhookDelivered || d.EventType != "card.frozen" || len(d.Attempts) != 3 {
		t.Fatalf("delivery %+v", d)
	}
	// The waits (1 s, then 2 s) go through the sandbox clock.
	for i, w := range []struct {
		status int
		at     time.Time
		next   string
	}{{500, t0, t0.Add(time.Second).Format(time.RFC3339)}, {502, t0.Add(time.Second), t0.Add(3 * time.Second).Format(time.RFC3339)}, {204, t0.Add(3 * time.Second), ""}} {
		a := d.Attempts[i]
		if a.Attempt != i+1 || a.Status != w.status || a.At != w.at.Format(time.RFC3339) || a.NextAttemptAt != w.next || (a.Error == "") != (w.status == 204) {
			t.Fatalf("attempt %d: %+v, want %+v", i+1, a, w)
		}
	}
	// Each attempt is signed afresh: three deliveries, three timestamps.
	var stamps []string
	for range 3 {
		stamps = append(stamps, (<-rc.got).header.Get("X-Timestamp"))
	}
	if stamps[0] == stamps[1] || stamps[1] == stamps[2] {
		t.Fatalf("timestamps %v", stamps)
	}
	last := e.do("GET", "/v1/webhooks/"+id, webhookAuth(alice), nil).JSON["lastDelivery"].(map[string]any)
	if last["state"] != webhookDelivered || last["attempt"] != float64(3) || last["status"] != float64(204) {
		t.Fatalf("lastDelivery %v", last)
	}
}

func TestWebhookGivesUpAfterFiveAttempts(t *testing.T) {
	e := newEnv(t, Options{})
	rc := newLoopbackReceiver(t, 503, 503, 503, 503, 503, 503)
	alice, _ := e.login("alice@demo.test")
	id, _ := subscribe(t, e, alice, rc.srv.URL, "card.frozen")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	d := deliveries(t, e, alice, id, settled)[0]
	if d.State != webhookFailed || len(d.Attempts) != webhookMaxAttempts {
		t.Fatalf("delivery %+v", d)
	}
	if a := d.Attempts[webhookMaxAttempts-1]; a.Status != 503 || a.NextAttemptAt != "" || a.At != t0.Add(15*time.Second).Format(time.RFC3339) {
		t.Fatalf("last attempt %+v", a)
	}
}

func TestWebhookRetriesAReceiverThatDoesNotAnswer(t *testing.T) {
	e := newEnv(t, Options{WebhookTimeout: 50 * time.Millisecond})
	release := make(chan struct{})
	var calls sync.Mutex
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Lock()
		n++
		first := n == 1
		calls.Unlock()
		if first {
			select {
			case <-release:
			case <-r.Context().Done():
			}
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	defer close(release)
	alice, _ := e.login("alice@demo.test")
	id, _ := subscribe(t, e, alice, srv.URL, "card.frozen")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	d := deliveries(t, e, alice, id, settled)[0]
	if d.State != webhookDelivered || len(d.Attempts) != 2 || d.Attempts[0].Error != "no answer within 50ms" || d.Attempts[0].Status != 0 || d.Attempts[1].Status != 200 {
		t.Fatalf("delivery %+v", d)
	}
}

// gateClock is a clock whose Sleep waits until the test lets it go.
type gateClock struct {
	*ManualClock
	sleeping chan struct{}
	wake     chan struct{}
}

func (c gateClock) Sleep(d time.Duration) {
	c.sleeping <- struct{}{}
	<-c.wake
	c.Advance(d)
}

func TestCloseStopsWaitingRetries(t *testing.T) {
	clock := gateClock{ManualClock: NewManualClock(t0), sleeping: make(chan struct{}), wake: make(chan struct{})}
	e := newEnv(t, Options{Clock: clock})
	rc := newLoopbackReceiver(t, 500, 500)
	alice, _ := e.login("alice@demo.test")
	id, _ := subscribe(t, e, alice, rc.srv.URL, "card.frozen")
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	<-rc.got
	<-clock.sleeping // the retry waits
	e.s.Close()
	close(clock.wake)
	select {
	case g := <-rc.got:
		t.Fatalf("a retry was sent after Close: %s", g.body)
	case <-time.After(100 * time.Millisecond):
	}
	if d := deliveries(t, e, alice, id, func(ds []webhookDeliveryJSON) bool { return len(ds) == 1 })[0]; len(d.Attempts) != 1 || d.State != webhookRetrying {
		t.Fatalf("delivery %+v", d)
	}
}
