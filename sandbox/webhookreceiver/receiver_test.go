package webhookreceiver

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
)

const testKey = "whsec_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

const testBody = `{"api_version":"v1","event_id":"evt_1","event_category":"card","event_type":"card.frozen","user_id":"u-1","event_object_id":"card-1","event_object":{"status":"FROZEN"},"occurred_at":"2026-03-01T12:00:00Z"}`

// fixture is a Receiver served over real HTTP, with a clock the test sets.
type fixture struct {
	t        *testing.T
	rcv      *Receiver
	srv      *httptest.Server
	now      time.Time
	events   <-chan Delivery
	forwards chan Delivery // what OnForward got
}

func newFixture(t *testing.T, forwardTo string) *fixture {
	t.Helper()
	f := &fixture{t: t, now: t0, forwards: make(chan Delivery, 16)}
	rcv, err := New(Options{Key: testKey, ForwardTo: forwardTo, Now: func() time.Time { return f.now },
		OnForward: func(d Delivery) { f.forwards <- d }})
	if err != nil {
		t.Fatal(err)
	}
	f.rcv = rcv
	f.events, _ = rcv.Subscribe(16)
	f.srv = httptest.NewServer(rcv)
	t.Cleanup(f.srv.Close)
	return f
}

// post sends body with the given headers (nil values are left out) and
// returns the answer's status and the Delivery the subscriber got.
func (f *fixture) post(body string, header map[string]string) (int, Delivery) {
	f.t.Helper()
	resp := postWith(f.t, f.srv.URL+"/hooks", body, header)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	select {
	case d := <-f.events:
		return resp.StatusCode, d
	case <-time.After(5 * time.Second):
		f.t.Fatal("no delivery published")
	}
	return 0, Delivery{}
}

// postWith posts body to url with the header; the caller reads and closes
// the answer's body.
func postWith(t *testing.T, url, body string, header map[string]string) *http.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func signed(key string, at time.Time, body string) map[string]string {
	ts := strconv.FormatInt(at.Unix(), 10)
	return map[string]string{
		"Content-Type":                   "application/json",
		apiclient.WebhookTimestampHeader: ts,
		apiclient.WebhookSignatureHeader: apiclient.SignWebhook(key, ts, []byte(body)),
	}
}

func TestReceiverAcceptsAValidDelivery(t *testing.T) {
	f := newFixture(t, "")
	status, d := f.post(testBody, signed(testKey, t0.Add(-30*time.Second), testBody))
	if status != http.StatusOK || !d.Verified || d.Reason != "" || d.Status != http.StatusOK {
		t.Fatalf("status %d, delivery %+v", status, d)
	}
	if d.EventType != "card.frozen" || d.EventID != "evt_1" || d.UserID != "u-1" || d.OccurredAt != "2026-03-01T12:00:00Z" {
		t.Fatalf("event fields %+v", d)
	}
	if string(d.Body) != testBody || d.Path != "/hooks" || d.Seq != 1 || !d.ReceivedAt.Equal(t0) || d.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("record %+v", d)
	}
	if h := f.rcv.History(); len(h) != 1 || h[0].Seq != 1 {
		t.Fatalf("history %+v", h)
	}
}

func TestReceiverRejectsWithTheReason(t *testing.T) {
	ok := signed(testKey, t0, testBody)
	with := func(k, v string) map[string]string {
		h := map[string]string{}
		for kk, vv := range ok {
			h[kk] = vv
		}
		if v == "" {
			delete(h, k)
		} else {
			h[k] = v
		}
		return h
	}
	for _, tc := range []struct {
		name   string
		body   string
		header map[string]string
		reason Reason
		detail string
	}{
		{"wrong key", testBody, signed("whsec_another_key_entirely_000000000000", t0, testBody), ReasonSignature, "does not match"},
		{"body changed", strings.Replace(testBody, "FROZEN", "ACTIVE", 1), ok, ReasonSignature, "does not match"},
		{"old timestamp", testBody, signed(testKey, t0.Add(-6*time.Minute), testBody), ReasonTimestamp, "signed 6 min ago, more than the 5 min allowed"},
		{"future timestamp", testBody, signed(testKey, t0.Add(10*time.Minute), testBody), ReasonTimestamp, "in the future"},
		{"no timestamp", testBody, with(apiclient.WebhookTimestampHeader, ""), ReasonMalformed, "X-Timestamp header is missing"},
		{"timestamp not a number", testBody, with(apiclient.WebhookTimestampHeader, "2026-03-01T12:00:00Z"), ReasonMalformed, "not unix seconds"},
		{"no signature", testBody, with(apiclient.WebhookSignatureHeader, ""), ReasonMalformed, "X-Signature header is missing"},
		{"signature not hex", testBody, with(apiclient.WebhookSignatureHeader, "sha256=zz"), ReasonMalformed, "64 hex digits"},
		{"signature truncated", testBody, with(apiclient.WebhookSignatureHeader, ok[apiclient.WebhookSignatureHeader][:40]), ReasonMalformed, "64 hex digits"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "")
			status, d := f.post(tc.body, tc.header)
			if status != http.StatusUnauthorized || d.Verified || d.Reason != tc.reason || !strings.Contains(d.Detail, tc.detail) {
				t.Fatalf("status %d, reason %q, detail %q", status, d.Reason, d.Detail)
			}
			// A rejected delivery keeps its size and a short prefix, never its body.
			if d.Status != http.StatusUnauthorized || d.Body != nil || d.Size != len(tc.body) ||
				d.BodyPrefix != tc.body[:prefixSize]+"…" {
				t.Fatalf("record %+v", d)
			}
		})
	}
}

func TestReceiverRejectsAReplayWithinTheWindowOnly(t *testing.T) {
	f := newFixture(t, "")
	header := signed(testKey, t0, testBody)
	if status, _ := f.post(testBody, header); status != http.StatusOK {
		t.Fatalf("first: %d", status)
	}
	f.now = t0.Add(4 * time.Minute)
	status, d := f.post(testBody, header)
	if status != http.StatusUnauthorized || d.Reason != ReasonReplay {
		t.Fatalf("replay: %d %q", status, d.Reason)
	}
	// Once out of the window it is stale, and no longer remembered.
	f.now = t0.Add(6 * time.Minute)
	status, d = f.post(testBody, header)
	if status != http.StatusUnauthorized || d.Reason != ReasonTimestamp {
		t.Fatalf("after the window: %d %q", status, d.Reason)
	}
	other := `{"event_type":"card.unfrozen"}`
	f.post(other, signed(testKey, f.now, other))
	f.rcv.mu.Lock()
	size := f.rcv.seen.size()
	f.rcv.mu.Unlock()
	if size != 1 {
		t.Fatalf("replay cache holds %d signatures, want only the live one", size)
	}
}

func TestReceiverDoesNotRememberRejectedSignatures(t *testing.T) {
	f := newFixture(t, "")
	header := signed(testKey, t0, testBody)
	// The same headers on a changed body are refused; the genuine delivery
	// that follows must not count as a replay.
	f.post(testBody+" ", header)
	if status, d := f.post(testBody, header); status != http.StatusOK {
		t.Fatalf("genuine after forged: %d %q", status, d.Reason)
	}
}

func TestReceiverAnswersOnlyPOST(t *testing.T) {
	f := newFixture(t, "")
	resp, err := http.Get(f.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || len(f.rcv.History()) != 0 {
		t.Fatalf("GET: %d, history %d", resp.StatusCode, len(f.rcv.History()))
	}
}

func TestReceiverAnswerBodies(t *testing.T) {
	f := newFixture(t, "")
	resp := postWith(t, f.srv.URL, testBody, signed(testKey, t0.Add(-time.Hour), testBody))
	defer resp.Body.Close()
	var answer struct{ Error, Reason string }
	if err := json.NewDecoder(resp.Body).Decode(&answer); err != nil || answer.Reason != "timestamp" || !strings.Contains(answer.Error, "timestamp outside the window") {
		t.Fatalf("answer %+v %v", answer, err)
	}
}

func TestSubscribersAndClose(t *testing.T) {
	f := newFixture(t, "")
	slow, cancel := f.rcv.Subscribe(1)
	f.post(testBody, signed(testKey, t0, testBody))
	other := `{"n":2}`
	f.post(other, signed(testKey, t0, other))
	if d := <-slow; d.Seq != 1 || f.rcv.Dropped() != 1 {
		t.Fatalf("slow subscriber got %d, dropped %d", d.Seq, f.rcv.Dropped())
	}
	cancel()
	if _, open := <-slow; open {
		t.Fatal("channel open after cancel")
	}
	cancel() // twice is harmless
	f.rcv.Close()
	if _, open := <-f.events; open {
		t.Fatal("channel open after Close")
	}
	if ch, _ := f.rcv.Subscribe(1); ch != nil {
		if _, open := <-ch; open {
			t.Fatal("subscription after Close is open")
		}
	}
}

func TestKeysAddedLaterAndSeveralKeys(t *testing.T) {
	rcv, err := New(Options{Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	events, _ := rcv.Subscribe(8)
	send := func(key, body string) Delivery {
		t.Helper()
		postWith(t, srv.URL, body, signed(key, t0, body)).Body.Close()
		return <-events
	}
	other := "whsec_second_webhook_pointing_here_0000000000"
	if d := send(testKey, `{"n":1}`); d.Verified || d.Reason != ReasonSignature || !strings.Contains(d.Detail, "no signing key yet") {
		t.Fatalf("before any key: %+v", d)
	}
	if err := rcv.AddKey(testKey); err != nil {
		t.Fatal(err)
	}
	if err := rcv.AddKey(other); err != nil {
		t.Fatal(err)
	}
	if d := send(testKey, `{"n":2}`); !d.Verified {
		t.Fatalf("first key: %+v", d)
	}
	if d := send(other, `{"n":3}`); !d.Verified {
		t.Fatalf("second key: %+v", d)
	}
	rcv.RemoveKey(testKey)
	if d := send(testKey, `{"n":4}`); d.Verified || d.Reason != ReasonSignature {
		t.Fatalf("removed key: %+v", d)
	}
	if err := rcv.AddKey("whsec_********abcd"); err == nil {
		t.Fatal("masked key added")
	}
}

func TestNewRefusesAMaskedKeyAndABadForwardURL(t *testing.T) {
	if _, err := New(Options{Key: "whsec_********abcd"}); err == nil {
		t.Fatal("masked key accepted")
	}
	if _, err := New(Options{Key: testKey, ForwardTo: "localhost:3000"}); err == nil {
		t.Fatal("forward URL without scheme accepted")
	}
}

func TestStartServesTheReceiver(t *testing.T) {
	rcv, err := New(Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	l, err := Start("127.0.0.1:0", rcv)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	now := time.Now()
	resp := postWith(t, l.URL, testBody, signed(testKey, now, testBody))
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(l.URL, "http://127.0.0.1:") {
		t.Fatalf("%s answered %d", l.URL, resp.StatusCode)
	}
}

func TestHistoryKeepsTheLatestNewestFirst(t *testing.T) {
	rcv, err := New(Options{Key: testKey, Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	ts := strconv.FormatInt(t0.Unix(), 10)
	for i := range historySize + 5 {
		body := `{"n":` + strconv.Itoa(i) + `}`
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set(apiclient.WebhookTimestampHeader, ts)
		req.Header.Set(apiclient.WebhookSignatureHeader, apiclient.SignWebhook(testKey, ts, []byte(body)))
		rcv.ServeHTTP(httptest.NewRecorder(), req)
	}
	h := rcv.History()
	if len(h) != historySize || h[0].Seq != historySize+5 || h[len(h)-1].Seq != 6 {
		t.Fatalf("history of %d from %d to %d", len(h), h[0].Seq, h[len(h)-1].Seq)
	}
}
