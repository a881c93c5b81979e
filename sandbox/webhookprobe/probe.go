// Package webhookprobe checks a partner's webhook receiver before it goes
// live: it sends one valid, signed delivery and the classic attacks on a
// receiver (a forged signature, a signature over another body, a stale or
// future timestamp, a replay, a missing header, an oversized body) and
// reports what each should get and what it got. stripe-cli forwards
// faithfully and never tests the receiver; this does.
package webhookprobe

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/humantime"
)

// Options says what to probe and how.
type Options struct {
	URL string // the receiver's endpoint
	Key string // the webhook's signing key
	// Tolerance is the timestamp window the gateway keeps (0 = 300 s); the
	// stale and future deliveries are twice as far off.
	Tolerance time.Duration
	// OversizedBytes is the size of the oversized body (0 = 4 MiB): a
	// gateway's deliveries are a few kilobytes.
	OversizedBytes int
	// Client sends the deliveries; nil = a client with a 10 s timeout that
	// does not follow redirects.
	Client *http.Client
	// Now is the clock the deliveries are signed with; nil = time.Now.
	Now func() time.Time
}

// Verdict is how a check came out.
type Verdict string

// The verdicts: a check passed, or the receiver accepted an attack, or it
// refused the valid delivery, or the request got no answer.
const (
	Passed   Verdict = "passed"
	Accepted Verdict = "accepted" // an attack got a 2xx: the receiver is unsafe
	Refused  Verdict = "refused"  // the valid delivery did not get a 2xx
	NoAnswer Verdict = "no answer"
)

// Check is one delivery sent and what came of it.
type Check struct {
	Name     string  `json:"name"`     // short id: valid, forged-signature, ...
	Sent     string  `json:"sent"`     // what was sent, in words
	Expected string  `json:"expected"` // "2xx" or "refused (4xx)"
	Status   int     `json:"status"`   // the answer's status; 0 when none came
	Verdict  Verdict `json:"verdict"`
	Detail   string  `json:"detail,omitempty"` // a transport error, or advice
}

// Report is the outcome of a probe.
type Report struct {
	URL    string  `json:"url"`
	Safe   bool    `json:"safe"` // the valid delivery got a 2xx and every attack was refused
	Checks []Check `json:"checks"`
}

// Defaults.
const (
	defaultOversized = 4 << 20
	requestTimeout   = 10 * time.Second
)

// delivery is one request to send.
type delivery struct {
	name, sent        string
	timestamp, signed string // the X-Timestamp and what the signature covers ("" = the body)
	body              []byte
	forged            bool // a random signature
	omit              string
	attack            bool
}

// Run sends the valid delivery, its replay and the attacks, in that order,
// and reports each. It stops early only when ctx ends.
func Run(ctx context.Context, o Options) (Report, error) {
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Report{}, fmt.Errorf("%q is not an http(s) URL", o.URL)
	}
	if o.Key == "" || apiclient.IsMaskedKey(o.Key) {
		return Report{}, errors.New("no usable signing key (a masked key cannot sign)")
	}
	if o.Tolerance <= 0 {
		o.Tolerance = apiclient.WebhookTolerance
	}
	if o.OversizedBytes <= 0 {
		o.OversizedBytes = defaultOversized
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	client := o.Client
	if client == nil {
		client = &http.Client{Timeout: requestTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	now := o.Now()
	stamp := func(at time.Time) string { return strconv.FormatInt(at.Unix(), 10) }
	off := 2 * o.Tolerance
	valid := delivery{name: "valid", sent: "a signed delivery, timestamp now", timestamp: stamp(now), body: eventBody(now)}
	deliveries := []delivery{
		valid,
		{name: "replay", sent: "the valid delivery again, byte for byte", timestamp: valid.timestamp, body: valid.body, attack: true},
		{name: "forged-signature", sent: "a random signature", timestamp: stamp(now), body: eventBody(now), forged: true, attack: true},
		{name: "other-body", sent: "a signature over another body", timestamp: stamp(now), body: eventBody(now), signed: string(eventBody(now)), attack: true},
		{name: "stale-timestamp", sent: "signed " + humantime.Duration(off) + " ago (window " + humantime.Duration(o.Tolerance) + ")", timestamp: stamp(now.Add(-off)), body: eventBody(now.Add(-off)), attack: true},
		{name: "future-timestamp", sent: "signed " + humantime.Duration(off) + " ahead", timestamp: stamp(now.Add(off)), body: eventBody(now.Add(off)), attack: true},
		{name: "missing-signature", sent: "no " + apiclient.WebhookSignatureHeader + " header", timestamp: stamp(now), body: eventBody(now), omit: apiclient.WebhookSignatureHeader, attack: true},
		{name: "missing-timestamp", sent: "no " + apiclient.WebhookTimestampHeader + " header", timestamp: stamp(now), body: eventBody(now), omit: apiclient.WebhookTimestampHeader, attack: true},
		{name: "oversized-body", sent: fmt.Sprintf("a signed body of %d MiB", o.OversizedBytes>>20), timestamp: stamp(now), body: oversizedBody(now, o.OversizedBytes), attack: true},
	}
	report := Report{URL: o.URL, Safe: true}
	for _, d := range deliveries {
		if err := ctx.Err(); err != nil {
			return report, err
		}
		check := send(ctx, client, o, d)
		if check.Verdict != Passed {
			report.Safe = false
		}
		report.Checks = append(report.Checks, check)
	}
	return report, nil
}

// send posts one delivery and judges the answer.
func send(ctx context.Context, client *http.Client, o Options, d delivery) Check {
	check := Check{Name: d.name, Sent: d.sent, Expected: "2xx"}
	if d.attack {
		check.Expected = "refused (4xx)"
	}
	signed := []byte(d.signed)
	if d.signed == "" {
		signed = d.body
	}
	signature := apiclient.SignWebhook(o.Key, d.timestamp, signed)
	if d.forged {
		signature = randomHex(32)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.URL, bytes.NewReader(d.body))
	if err != nil {
		check.Verdict, check.Detail = NoAnswer, err.Error()
		return check
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "cardterm-webhook-probe")
	req.Header.Set(apiclient.WebhookTimestampHeader, d.timestamp)
	req.Header.Set(apiclient.WebhookSignatureHeader, signature)
	if d.omit != "" {
		req.Header.Del(d.omit)
	}
	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		if d.name == "oversized-body" {
			// Closing the connection on a body too large is a refusal.
			check.Status, check.Verdict, check.Detail = 0, Passed, "the receiver closed the connection: "+err.Error()
			return check
		}
		check.Verdict, check.Detail = NoAnswer, err.Error()
		return check
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	check.Status = resp.StatusCode
	ok := resp.StatusCode >= 200 && resp.StatusCode < 300
	switch {
	case !d.attack && ok:
		check.Verdict = Passed
	case !d.attack:
		check.Verdict, check.Detail = Refused, "the valid delivery was refused: is the key this webhook's current one, and the body read raw?"
	case ok:
		check.Verdict, check.Detail = Accepted, advice(d.name)
	default:
		check.Verdict = Passed
		if resp.StatusCode >= 500 {
			check.Detail = "refused with a server error: answer 400 or 401 so the sender knows not to retry"
		}
	}
	return check
}

// advice says what a receiver that accepted the attack called name is
// missing. (A switch, as is certifyAdvice: a package map is built before
// main on every start.)
func advice(name string) string {
	switch name {
	case "replay":
		return "keep the signatures (or event ids) accepted within the window and refuse them again"
	case "forged-signature":
		return "verify X-Signature: hex HMAC-SHA256(key, timestamp + \".\" + raw body), compared in constant time"
	case "other-body":
		return "compute the HMAC over the raw body received, not over a re-encoded or cached one"
	case "stale-timestamp":
		return "refuse a timestamp further than the window from now (300 s), even with a good signature"
	case "future-timestamp":
		return "refuse a timestamp ahead of now by more than the window too"
	case "missing-signature":
		return "refuse a delivery without X-Signature"
	case "missing-timestamp":
		return "refuse a delivery without X-Timestamp (the signature covers it)"
	case "oversized-body":
		return "cap the body a delivery may have (a few hundred KiB) before reading it"
	}
	return ""
}

// eventBody is a delivery's body with an event id of its own, so each
// check is a new event unless it is the replay.
func eventBody(at time.Time) []byte {
	b, _ := json.Marshal(map[string]any{
		"api_version": "v1", "event_id": uuid(), "event_category": "card", "event_type": "card.frozen",
		"user_id": uuid(), "event_object_id": "probe-card", "occurred_at": at.UTC().Format(time.RFC3339),
		"event_object": map[string]any{"id": "probe-card", "status": "FROZEN", "test": true, "probe": "cardterm webhook probe"},
	})
	return b
}

// oversizedBody is a well-formed event padded to size bytes.
func oversizedBody(at time.Time, size int) []byte {
	b := eventBody(at)
	pad := size - len(b) - len(`,"padding":""`)
	if pad < 0 {
		pad = 0
	}
	return append(append(b[:len(b)-1], `,"padding":"`+string(bytes.Repeat([]byte{'x'}, pad))+`"`...), '}')
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func uuid() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
