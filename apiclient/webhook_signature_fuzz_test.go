package apiclient

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// The webhook headers come from whoever posts to a receiver. Whatever
// X-Timestamp and X-Signature hold, VerifyWebhookSignature accepts a
// delivery exactly when the timestamp is unix seconds within the
// tolerance and the signature is the HMAC of that timestamp and the body
// under the key (hex, either case, spaces around allowed); and the
// signature SignWebhook makes for any timestamp is always accepted at
// that time.
func FuzzWebhookSignatureHeaders(f *testing.F) {
	const key = "whsec_fuzz_0123456789abcdef0123456789abcdef"
	now := time.Unix(1_795_338_000, 0)
	ts := strconv.FormatInt(now.Unix(), 10)
	body := []byte(`{"event_type":"card.frozen"}`)
	good := SignWebhook(key, ts, body)
	for _, seed := range []struct{ ts, sig string }{
		{ts, good}, {" " + ts + " ", strings.ToUpper(good)}, {ts, good[:63]}, {ts, "sha256=" + good},
		{"1795337600", good}, {"-1", good}, {"9999999999999999999999", good}, {"0x6b", good},
		{"+1795338000", good}, {"1795338000.5", good}, {"", ""}, {ts, good + good}, {ts, "zz" + good[2:]},
	} {
		f.Add(seed.ts, seed.sig, body)
	}
	f.Fuzz(func(t *testing.T, timestamp, signature string, body []byte) {
		err := VerifyWebhookSignature(key, timestamp, signature, body, now)
		sec, perr := strconv.ParseInt(strings.TrimSpace(timestamp), 10, 64)
		inWindow := perr == nil && sec >= now.Add(-WebhookTolerance).Unix() && sec <= now.Add(WebhookTolerance).Unix()
		matches := strings.EqualFold(strings.TrimSpace(signature), SignWebhook(key, strings.TrimSpace(timestamp), body))
		if (err == nil) != (inWindow && matches) {
			t.Fatalf("ts %q sig %q: err %v, in window %v, matches %v", timestamp, signature, err, inWindow, matches)
		}
		// What the gateway signs verifies at its own time.
		if perr == nil {
			at := time.Unix(sec, 0)
			canonical := strconv.FormatInt(sec, 10)
			if err := VerifyWebhookSignature(key, canonical, SignWebhook(key, canonical, body), body, at); err != nil {
				t.Fatalf("a genuine signature at %s refused: %v", canonical, err)
			}
		}
	})
}
