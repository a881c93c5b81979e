package webhookprobe

import (
	"bytes"
	"context"
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

// Certification: the go-live report. Certify plays a fixed list of
// scenarios against a partner's receiver, each a short series of
// deliveries as the gateway makes them (in order, out of order, twice,
// replayed, unsigned, signed with an old key, late, and signed before
// the clock moved past the window), and judges each from the statuses
// it got. The report (certify_report.go) keeps every delivery as evidence.

// CertifyOptions says which receiver to certify and how.
type CertifyOptions struct {
	URL string // the receiver's endpoint
	Key string // the webhook's current signing key
	// OldKey is a key rotated away; "" = a random key standing for one.
	OldKey string
	// Tolerance is the timestamp window (0 = 300 s).
	Tolerance time.Duration
	Client    *http.Client
	Now       func() time.Time
}

// Sent is one delivery of a scenario and its answer: the evidence.
type Sent struct {
	EventID    string `json:"eventId"`
	EventType  string `json:"eventType"`
	OccurredAt string `json:"occurredAt"`
	Timestamp  string `json:"timestamp"` // X-Timestamp, "" when not sent
	Signature  string `json:"signature"` // how it was signed: current key, old key, none, the same as before
	Expected   string `json:"expected"`  // 2xx or refused
	Status     int    `json:"status"`    // 0 when no answer came
	Error      string `json:"error,omitempty"`
}

// Scenario is one check of the certification.
type Scenario struct {
	Name       string  `json:"name"`
	What       string  `json:"what"`
	Verdict    Verdict `json:"verdict"` // passed, or what went wrong
	Why        string  `json:"why,omitempty"`
	Deliveries []Sent  `json:"deliveries"`
}

// shot is one delivery to make.
type shot struct {
	eventType  string
	occurred   time.Time
	signedAt   time.Time
	key        string // "" = unsigned
	signedWith string
	replay     bool   // send the previous request again, byte for byte
	eventID    string // "" = a new one
	refuse     bool
}

// certifier plays the scenarios.
type certifier struct {
	o      CertifyOptions
	client *http.Client
	card   string // the test card the events are about
}

// Certify runs every scenario in order; it stops early only when ctx ends.
func Certify(ctx context.Context, o CertifyOptions) ([]Scenario, error) {
	u, err := url.Parse(o.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%q is not an http(s) URL", o.URL)
	}
	if o.Key == "" || apiclient.IsMaskedKey(o.Key) {
		return nil, errors.New("no usable signing key (a masked key cannot sign)")
	}
	if o.OldKey == "" {
		o.OldKey = "whsec_" + randomHex(24)
	}
	if o.Tolerance <= 0 {
		o.Tolerance = apiclient.WebhookTolerance
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	c := &certifier{o: o, client: o.Client, card: "certify-card-" + randomHex(4)}
	if c.client == nil {
		c.client = &http.Client{Timeout: requestTimeout, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	var out []Scenario
	for _, play := range c.scenarios() {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		out = append(out, play(ctx))
	}
	return out, nil
}

// scenarios is the fixed list, in the report's order.
func (c *certifier) scenarios() []func(context.Context) Scenario {
	now, window := c.o.Now(), c.o.Tolerance
	signed := func(eventType string, occurred time.Time) shot {
		return shot{eventType: eventType, occurred: occurred, signedAt: now, key: c.o.Key, signedWith: "the current key"}
	}
	return []func(context.Context) Scenario{
		c.play("in-order", "three events of one card, delivered in the order they happened", func(send func(shot) Sent) {
			for i, t := range []string{"card.frozen", "card.unfrozen", "card.frozen"} {
				send(signed(t, now.Add(time.Duration(i-3)*time.Minute)))
			}
		}),
		c.play("out-of-order", "two events delivered the other way round: the later one first (judge by occurred_at, never refuse)", func(send func(shot) Sent) {
			send(signed("card.unfrozen", now.Add(-time.Minute)))
			send(signed("card.frozen", now.Add(-2*time.Minute)))
		}),
		c.play("twice", "one event delivered twice, each signed afresh, as a retry after a lost answer (acknowledge both, act once)", func(send func(shot) Sent) {
			first := send(signed("card.frozen", now.Add(-time.Minute)))
			again := signed("card.frozen", now.Add(-time.Minute))
			again.eventID, again.signedAt = first.EventID, now.Add(time.Second)
			send(again)
		}),
		c.play("replayed", "a delivery captured and sent again byte for byte, signature and timestamp included", func(send func(shot) Sent) {
			first := signed("card.frozen", now)
			send(first)
			send(shot{replay: true, refuse: true, signedWith: "the same signature as before"})
		}),
		c.play("unsigned", "a delivery without X-Signature", func(send func(shot) Sent) {
			send(shot{eventType: "card.frozen", occurred: now, signedAt: now, signedWith: "none", refuse: true})
		}),
		c.play("old-key", "a delivery signed with a key rotated away", func(send func(shot) Sent) {
			send(shot{eventType: "card.frozen", occurred: now, signedAt: now, key: c.o.OldKey, signedWith: "an old key", refuse: true})
		}),
		c.play("late", "an event that happened hours ago, delivered now after an outage, freshly signed (accept it)", func(send func(shot) Sent) {
			send(signed("card.frozen", now.Add(-6*time.Hour)))
		}),
		c.play("expired-midway", "two fresh deliveries, then the last of a batch that left after the "+humantime.Duration(window)+" window had passed, still signed at the batch's start, "+humantime.Duration(2*window)+" ago (refuse it)", func(send func(shot) Sent) {
			send(signed("card.frozen", now.Add(-time.Minute)))
			send(signed("card.unfrozen", now))
			late := signed("card.frozen", now)
			late.signedAt, late.refuse = now.Add(-2*window), true
			send(late)
		}),
	}
}

// play builds a scenario: its deliveries, then its verdict.
func (c *certifier) play(name, what string, deliveries func(send func(shot) Sent)) func(context.Context) Scenario {
	return func(ctx context.Context) Scenario {
		s := Scenario{Name: name, What: what, Verdict: Passed, Deliveries: []Sent{}}
		var last *http.Request
		var lastBody []byte
		deliveries(func(sh shot) Sent {
			var sent Sent
			if sh.replay && last != nil {
				sent = c.resend(ctx, last, lastBody)
			} else {
				last, lastBody, sent = c.send(ctx, sh)
			}
			sent.Signature, sent.Expected = sh.signedWith, "2xx"
			if sh.refuse {
				sent.Expected = "refused"
			}
			s.Deliveries = append(s.Deliveries, sent)
			return sent
		})
		s.Verdict, s.Why = judge(s.Deliveries)
		return s
	}
}

// send signs and posts one new delivery.
func (c *certifier) send(ctx context.Context, sh shot) (*http.Request, []byte, Sent) {
	id := sh.eventID
	if id == "" {
		id = uuid()
	}
	body, _ := json.Marshal(map[string]any{
		"api_version": "v1", "event_id": id, "event_category": "card", "event_type": sh.eventType, "user_id": "certify-user",
		"event_object_id": c.card, "occurred_at": sh.occurred.UTC().Format(time.RFC3339),
		"event_object": map[string]any{"id": c.card, "test": true, "probe": "cardterm certify"},
	})
	ts := strconv.FormatInt(sh.signedAt.Unix(), 10)
	sent := Sent{EventID: id, EventType: sh.eventType, OccurredAt: sh.occurred.UTC().Format(time.RFC3339), Timestamp: ts}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.o.URL, bytes.NewReader(body))
	if err != nil {
		sent.Error = err.Error()
		return nil, nil, sent
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "cardterm-certify")
	req.Header.Set(apiclient.WebhookTimestampHeader, ts)
	if sh.key != "" {
		req.Header.Set(apiclient.WebhookSignatureHeader, apiclient.SignWebhook(sh.key, ts, body))
	}
	sent.Status, sent.Error = c.post(req, body)
	return req, body, sent
}

// resend posts the very same request again.
func (c *certifier) resend(ctx context.Context, req *http.Request, body []byte) Sent {
	var ev struct {
		EventID    string `json:"event_id"`
		EventType  string `json:"event_type"`
		OccurredAt string `json:"occurred_at"`
	}
	_ = json.Unmarshal(body, &ev)
	sent := Sent{EventID: ev.EventID, EventType: ev.EventType, OccurredAt: ev.OccurredAt, Timestamp: req.Header.Get(apiclient.WebhookTimestampHeader)}
	again := req.Clone(ctx)
	sent.Status, sent.Error = c.post(again, body)
	return sent
}

// post sends req with body and returns the status, or why none came.
func (c *certifier) post(req *http.Request, body []byte) (int, string) {
	req.Body = io.NopCloser(bytes.NewReader(body))
	resp, err := c.client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return 0, err.Error()
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp.StatusCode, ""
}

// judge is a scenario's verdict from its deliveries: each expected 2xx
// got one, each expected refusal got a 4xx or 5xx.
func judge(deliveries []Sent) (Verdict, string) {
	for i, d := range deliveries {
		ok := d.Status >= 200 && d.Status < 300
		switch {
		case d.Status == 0:
			return NoAnswer, fmt.Sprintf("delivery %d got no answer: %s", i+1, d.Error)
		case d.Expected == "2xx" && !ok:
			return Refused, fmt.Sprintf("delivery %d (%s) was refused with %d: a correct delivery must be acknowledged, or the gateway retries it", i+1, d.EventType, d.Status)
		case d.Expected == "refused" && ok:
			return Accepted, fmt.Sprintf("delivery %d was accepted with %d: %s", i+1, d.Status, certifyAdvice(d.Signature))
		}
	}
	return Passed, ""
}

// certifyAdvice says what a receiver that accepted a bad delivery, signed
// with signature, misses.
func certifyAdvice(signature string) string {
	switch signature {
	case "the same signature as before":
		return advice("replay")
	case "none":
		return advice("missing-signature")
	case "an old key":
		return "verify with the current key only (after a rotation the old one is dead)"
	case "the current key":
		return advice("stale-timestamp")
	}
	return ""
}
