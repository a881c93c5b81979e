package webhookreceiver

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
)

// BenchmarkVerify is the cost of checking one delivery's signature and
// timestamp; deliveries per second on one core = 1e9 / ns/op.
func BenchmarkVerify(b *testing.B) {
	ts := strconv.FormatInt(t0.Unix(), 10)
	body := []byte(testBody)
	sig := apiclient.SignWebhook(testKey, ts, body)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Verify(testKey, ts, sig, body, t0, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyReceiver is one delivery through the handler, without
// the network: read, verify, replay check, publish, answer. Each delivery
// is distinct (no replays); they are signed outside the timed part.
func BenchmarkVerifyReceiver(b *testing.B) {
	rcv, err := New(Options{Key: testKey, Now: func() time.Time { return t0 }})
	if err != nil {
		b.Fatal(err)
	}
	ts := strconv.FormatInt(t0.Unix(), 10)
	const batch = 4096
	bodies, sigs := make([]string, batch), make([]string, batch)
	b.ReportAllocs()
	n := 0
	for i := 0; b.Loop(); i++ {
		if i%batch == 0 {
			b.StopTimer()
			for j := range batch {
				bodies[j] = strings.Replace(testBody, "evt_1", "evt_"+strconv.Itoa(n), 1)
				sigs[j] = apiclient.SignWebhook(testKey, ts, []byte(bodies[j]))
				n++
			}
			b.StartTimer()
		}
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(bodies[i%batch]))
		req.Header.Set(apiclient.WebhookTimestampHeader, ts)
		req.Header.Set(apiclient.WebhookSignatureHeader, sigs[i%batch])
		w := httptest.NewRecorder()
		rcv.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("delivery %d: %d %s", i, w.Code, w.Body)
		}
	}
}
