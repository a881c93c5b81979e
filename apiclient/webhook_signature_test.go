package apiclient

import (
	"errors"
	"strconv"
	"testing"
	"time"
)

func TestVerifyWebhookSignature(t *testing.T) {
	key := "whsec_0123456789abcdef"
	body := []byte(`{"event_type":"card.activated"}`)
	now := time.Unix(1_800_000_000, 0)
	ts := strconv.FormatInt(now.Unix(), 10)
	sig := SignWebhook(key, ts, body)
	// Known answer, from openssl dgst -sha256 -hmac.
	if sig != "b8a64c7eb953ec186ac95cca635a486545c6b15181907f151aecd905ad877176" {
		t.Fatalf("signature %q", sig)
	}
	if err := VerifyWebhookSignature(key, ts, sig, body, now); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name         string
		key, ts, sig string
		body         []byte
		now          time.Time
		want         error
	}{
		{"300 s late is fine", key, ts, sig, body, now.Add(300 * time.Second), nil},
		{"301 s late", key, ts, sig, body, now.Add(301 * time.Second), ErrWebhookTimestamp},
		{"301 s early", key, ts, sig, body, now.Add(-301 * time.Second), ErrWebhookTimestamp},
		{"no timestamp", key, "", sig, body, now, ErrWebhookTimestamp},
		{"timestamp in ms", key, ts + "000", sig, body, now, ErrWebhookTimestamp},
		{"other body", key, ts, sig, []byte(`{"event_type":"card.frozen"}`), now, ErrWebhookSignature},
		{"other key", key + "x", ts, sig, body, now, ErrWebhookSignature},
		{"masked key", "whsec_********cdef", ts, sig, body, now, ErrWebhookSignature},
		{"signature not hex", key, ts, "zz" + sig[2:], body, now, ErrWebhookSignature},
		{"signature short", key, ts, sig[:62], body, now, ErrWebhookSignature},
		{"timestamp swapped (replay with a new time)", key, strconv.FormatInt(now.Unix()+1, 10), sig, body, now, ErrWebhookSignature},
	}
	for _, c := range cases {
		err := VerifyWebhookSignature(c.key, c.ts, c.sig, c.body, c.now)
		if (c.want == nil) != (err == nil) || (c.want != nil && !errors.Is(err, c.want)) {
			t.Errorf("%s: err %v, want %v", c.name, err, c.want)
		}
	}
	// Upper-case hex is the same signature.
	up := []byte(sig)
	for i, b := range up {
		if b >= 'a' && b <= 'f' {
			up[i] = b - 32
		}
	}
	if err := VerifyWebhookSignature(key, ts, string(up), body, now); err != nil {
		t.Errorf("upper-case hex: %v", err)
	}
}
