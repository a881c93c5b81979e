package webhookreceiver

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestReceiverForwardsHeadersAndBodyByteForByte(t *testing.T) {
	type got struct {
		header http.Header
		body   []byte
	}
	gotCh := make(chan got, 1)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotCh <- got{r.Header.Clone(), b}
		w.WriteHeader(http.StatusAccepted)
	}))
	defer target.Close()
	f := newFixture(t, target.URL+"/webhooks")
	// Bytes a re-encoding would change: spacing, key order, escapes, a
	// non-ASCII character and no final newline.
	body := "{ \"event_type\" : \"card.frozen\",\"z\":1,\"a\":\"\\u00e9 é\"  }"
	header := signed(testKey, t0, body)
	header["User-Agent"] = "cardterm-sandbox-webhooks/1"
	header["X-Request-Id"] = "  spaced value  "
	status, d := f.post(body, header)
	if status != http.StatusOK || d.Forward != nil {
		t.Fatalf("status %d forward %+v before the forward ran", status, d.Forward)
	}
	forwarded := f.forwarded()
	if forwarded.Seq != d.Seq || forwarded.Forward == nil || forwarded.Forward.Status != http.StatusAccepted ||
		forwarded.Forward.URL != target.URL+"/webhooks" || forwarded.Forward.Error != "" {
		t.Fatalf("forward %+v", forwarded.Forward)
	}
	g := <-gotCh
	if !bytes.Equal(g.body, []byte(body)) {
		t.Fatalf("forwarded body %q, want %q", g.body, body)
	}
	for k, v := range header {
		if got := g.header.Values(k); len(got) != 1 || got[0] != strings.TrimSpace(v) {
			// net/http trims the spaces around a value on both hops.
			t.Errorf("header %s forwarded as %q, want %q", k, got, v)
		}
	}
	for k := range g.header {
		if k == "Content-Length" {
			continue
		}
		if _, ok := d.Header[k]; !ok {
			t.Errorf("forward added header %s: %q", k, g.header.Values(k))
		}
	}
}

func TestReceiverDoesNotForwardRejectedDeliveries(t *testing.T) {
	calls := make(chan struct{}, 1)
	target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { calls <- struct{}{} }))
	defer target.Close()
	f := newFixture(t, target.URL)
	f.post(testBody, signed("whsec_wrong_key_0000000000000000000000", t0, testBody))
	select {
	case <-calls:
		t.Fatal("the target was called")
	case d := <-f.forwards:
		t.Fatalf("forwarded a rejected delivery: %+v", d.Forward)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestReceiverRecordsAnUnreachableForwardTarget(t *testing.T) {
	target := httptest.NewServer(http.NotFoundHandler())
	addr := target.URL
	target.Close() // nothing listens there now
	f := newFixture(t, addr)
	status, _ := f.post(testBody, signed(testKey, t0, testBody))
	if d := f.forwarded(); status != http.StatusOK || d.Forward.Status != 0 || d.Forward.Error == "" {
		t.Fatalf("status %d forward %+v", status, d.Forward)
	}
}

// forwarded waits for OnForward's next delivery.
func (f *fixture) forwarded() Delivery {
	f.t.Helper()
	select {
	case d := <-f.forwards:
		if d.Forward == nil {
			f.t.Fatal("OnForward got no result")
		}
		return d
	case <-time.After(15 * time.Second):
		f.t.Fatal("no forward reported")
	}
	return Delivery{}
}

// A slow target never holds the sender's answer: the forward runs beside
// it, and a full queue drops forwards (said so) instead of piling them up.
func TestSlowForwardTargetDoesNotDelayTheAnswer(t *testing.T) {
	release := make(chan struct{})
	target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	defer target.Close()
	defer close(release)
	f := newFixture(t, target.URL)
	f.forwards = make(chan Delivery, 2*forwardQueueSize)
	start := time.Now()
	sent := forwardWorkers + forwardQueueSize + 3
	for i := range sent {
		body := `{"event_type":"card.frozen","n":` + strconv.Itoa(i) + `}`
		if status, _ := f.post(body, signed(testKey, t0, body)); status != http.StatusOK {
			t.Fatalf("delivery %d answered %d", i, status)
		}
	}
	if took := time.Since(start); took > 8*time.Second { // behind each forward, it would be 10 s each
		t.Fatalf("%d answers took %s behind a target that never answers", sent, took)
	}
	// The workers hold forwardWorkers, the queue the next ones; the rest
	// are reported at once.
	for range 3 {
		if d := f.forwarded(); !strings.Contains(d.Forward.Error, "forwards already waiting") {
			t.Fatalf("overflow reported as %+v", d.Forward)
		}
	}
}
