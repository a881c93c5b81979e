package webhookreceiver

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
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
	if status != http.StatusOK || d.Forward == nil || d.Forward.Status != http.StatusAccepted || d.Forward.URL != target.URL+"/webhooks" || d.Forward.Error != "" {
		t.Fatalf("status %d forward %+v", status, d.Forward)
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
	if _, d := f.post(testBody, signed("whsec_wrong_key_0000000000000000000000", t0, testBody)); d.Forward != nil {
		t.Fatalf("forwarded a rejected delivery: %+v", d.Forward)
	}
	select {
	case <-calls:
		t.Fatal("the target was called")
	case <-time.After(100 * time.Millisecond):
	}
}

func TestReceiverRecordsAnUnreachableForwardTarget(t *testing.T) {
	target := httptest.NewServer(http.NotFoundHandler())
	addr := target.URL
	target.Close() // nothing listens there now
	f := newFixture(t, addr)
	status, d := f.post(testBody, signed(testKey, t0, testBody))
	if status != http.StatusOK || d.Forward == nil || d.Forward.Status != 0 || d.Forward.Error == "" {
		t.Fatalf("status %d forward %+v", status, d.Forward)
	}
}
