package webhookreceiver

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
)

// A delivery of 1 MiB, unsigned or signed with another key: what one
// costs the receiver (the body is read into a pooled buffer and dropped;
// B/op is what is allocated besides), and what the history then holds.
func BenchmarkRejectedMegabyteDelivery(b *testing.B) {
	body := []byte(`{"event_type":"card.frozen","pad":"` + strings.Repeat("x", MaxBody-37) + `"}`)
	ts := strconv.FormatInt(t0.Unix(), 10)
	for _, c := range []struct {
		name   string
		header map[string]string
	}{
		{"unsigned", map[string]string{"Content-Type": "application/json"}},
		{"wrong-key", map[string]string{apiclient.WebhookTimestampHeader: ts,
			apiclient.WebhookSignatureHeader: apiclient.SignWebhook("whsec_another_key_0000000000000000", ts, body)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			rcv, err := New(Options{Key: testKey, Now: func() time.Time { return t0 }})
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/", bytes.NewReader(body))
				for k, v := range c.header {
					req.Header.Set(k, v)
				}
				w := httptest.NewRecorder()
				rcv.ServeHTTP(w, req)
				if w.Code != http.StatusUnauthorized {
					b.Fatalf("answered %d", w.Code)
				}
			}
			held := 0
			for _, d := range rcv.History() {
				held += d.cost()
			}
			b.ReportMetric(float64(held)/float64(len(rcv.History())), "history-B/delivery")
		})
	}
}
