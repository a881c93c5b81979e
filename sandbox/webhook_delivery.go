package sandbox

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"syscall"
	"time"
)

// Deliveries: a JSON event {api_version, event_id, event_category,
// event_type, user_id, event_object_id, event_object, occurred_at} is POSTed
// to every ACTIVE configuration of the partner subscribed to its type,
// asynchronously. Headers: X-Timestamp (unix seconds of the sandbox's
// clock, without the shift of POST /sandbox/clock, when the attempt is signed) and X-Signature = hex HMAC-SHA256(apiKey,
// timestamp + "." + body).
//
// Reliability: an attempt that gets no answer within the attempt timeout,
// a transport error or a non-2xx status is retried after webhookBackoff (1 s,
// 2 s, 4 s, 8 s), at most webhookMaxAttempts attempts in all. Each attempt is
// recorded (number, time, status or error, duration) on the configuration:
// the latest as lastDelivery, the whole history through
// GET /v1/webhooks/{id}/deliveries (webhook_history.go). The waits go
// through the sandbox clock, so a ManualClock makes them instant.
//
// Outbound traffic: without Options.WebhookClient the sandbox delivers to
// loopback addresses only (localhost, 127.0.0.0/8, ::1), checked both on
// the URL and on the address actually dialled.

// webhookDefaultTimeout bounds one delivery attempt when Options.WebhookTimeout
// is zero.
const webhookDefaultTimeout = 10 * time.Second

// webhookMaxAttempts is how many times one event is sent to one configuration.
const webhookMaxAttempts = 5

// webhookBackoff is the wait before attempt n+1 after attempt n failed.
func webhookBackoff(n int) time.Duration { return time.Second << (n - 1) }

// webhookAPIVersion is the api_version of the deliveries.
const webhookAPIVersion = "v1"

// webhookUserAgent names the sandbox as the sender.
const webhookUserAgent = "cardterm-sandbox-webhooks/1"

// errNotLoopback refuses a dial to an address off this machine.
var errNotLoopback = errors.New("the sandbox delivers to loopback addresses only")

// webhookDefaultClient delivers when Options.WebhookClient is nil: loopback
// only, no redirects (a redirect could leave the machine). Made at the
// first delivery.
var webhookDefaultClient = lazy[*http.Client]{build: func() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			DialContext: (&net.Dialer{
				Timeout: 5 * time.Second,
				Control: func(_, address string, _ syscall.RawConn) error {
					host, _, err := net.SplitHostPort(address)
					if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
						return errNotLoopback
					}
					return nil
				},
			}).DialContext,
			DisableCompression: true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}}

// webhookEvent is the delivery body, in its documented field order.
type webhookEvent struct {
	APIVersion    string `json:"api_version"`
	EventID       string `json:"event_id"`
	EventCategory string `json:"event_category"`
	EventType     string `json:"event_type"`
	UserID        string `json:"user_id"`
	EventObjectID string `json:"event_object_id"`
	EventObject   any    `json:"event_object"`
	OccurredAt    string `json:"occurred_at"`
}

// WebhookSignature is the X-Signature of a delivery: hex HMAC-SHA256 of
// timestamp + "." + body under the configuration's API key. Exported so
// partners' tests can sign like the sandbox.
func WebhookSignature(apiKey, timestamp string, body []byte) string {
	m := hmac.New(sha256.New, []byte(apiKey))
	m.Write([]byte(timestamp))
	m.Write([]byte("."))
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// webhookTarget is one configuration an event goes to.
type webhookTarget struct {
	partner *webhookPartner
	hookID  string
	record  *webhookDeliveryRecord
}

// webhookDeliver sends body to t, retrying with backoff, and records every
// attempt. The url and key are read afresh for each attempt: after an
// update or a rotation the retries follow them.
func (s *Server) webhookDeliver(t webhookTarget, body []byte) {
	for n := 1; ; n++ {
		at := s.now()
		// The signature's timestamp is the injected clock's, not the
		// shifted sandbox time (clock_shift.go): receivers check it
		// against their own clock, which a sandbox clock move does not move.
		ts := s.signingTimes.stamp(t.hookID, body, s.clock.Now())
		s.mu.Lock()
		hook := t.partner.find(t.hookID)
		var target, key string
		if hook != nil {
			target, key = hook.URL, hook.APIKey
		}
		s.mu.Unlock()
		if hook == nil {
			s.webhookFinish(t, webhookAttempt{Attempt: n, At: at, Error: "not sent: the configuration was deleted"}, webhookFailed)
			return
		}
		attempt, retry := s.webhookAttempt(target, key, ts, body)
		attempt.Attempt, attempt.At = n, at
		switch {
		case !retry && attempt.Error == "":
			s.webhookFinish(t, attempt, webhookDelivered)
			return
		case !retry || n == webhookMaxAttempts:
			s.webhookFinish(t, attempt, webhookFailed)
			return
		}
		attempt.NextAttemptAt = at.Add(webhookBackoff(n))
		s.webhookFinish(t, attempt, webhookRetrying)
		if !s.sleep(webhookBackoff(n)) {
			return // the sandbox is closing
		}
	}
}

// webhookAttempt makes one attempt. retry says whether a failure may succeed
// later (a timeout, a refused connection, a non-2xx answer); a target the
// sandbox will not send to is not retried.
// sandboxOnlyLoopback is why a delivery to another host was not sent, in
// words for whoever reads the attempt (a partner in a demo), not the Go
// option that lifts the limit.
const sandboxOnlyLoopback = "not sent: the sandbox delivers to loopback hosts only (localhost, 127.0.0.1); " +
	"point the webhook at a receiver on this machine, such as the in-app listener"

func (s *Server) webhookAttempt(target, key, ts string, body []byte) (webhookAttempt, bool) {
	var a webhookAttempt
	client := s.opts.WebhookClient
	if client == nil {
		client = webhookDefaultClient.get()
		if !webhookLoopback(target) {
			a.Error = sandboxOnlyLoopback
			return a, false
		}
	}
	timeout := s.opts.WebhookTimeout
	if timeout <= 0 {
		timeout = webhookDefaultTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		a.Error = "not sent: invalid url"
		return a, false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", webhookUserAgent)
	req.Header.Set("X-Timestamp", ts)
	req.Header.Set("X-Signature", WebhookSignature(key, ts, body))
	start := time.Now()
	resp, err := client.Do(req)
	a.DurationMs = time.Since(start).Milliseconds()
	if err != nil {
		a.Error = webhookShortError(err, timeout)
		return a, !errors.Is(err, errNotLoopback)
	}
	resp.Body.Close()
	a.Status = resp.StatusCode
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		a.Error = fmt.Sprintf("the receiver answered %d", resp.StatusCode)
		return a, true
	}
	return a, false
}

// sleep waits d on the sandbox clock: a clock with a Sleep method (such as
// ManualClock, which just moves) decides how; the wall clock really waits.
// It reports false when the sandbox was closed meanwhile.
func (s *Server) sleep(d time.Duration) bool {
	if sl, ok := s.clock.(interface{ Sleep(time.Duration) }); ok {
		sl.Sleep(d)
		select {
		case <-s.quit:
			return false
		default:
			return true
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.quit:
		return false
	}
}

// webhookShortError is a transport error without the url (which may be long).
func webhookShortError(err error, timeout time.Duration) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return fmt.Sprintf("no answer within %s", timeout)
		}
		return ue.Err.Error()
	}
	return err.Error()
}

// webhookLoopback reports whether target's host is a loopback name or address.
func webhookLoopback(target string) bool {
	u, err := url.Parse(target)
	return err == nil && loopbackHost(u)
}
