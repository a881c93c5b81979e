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
	"strconv"
	"syscall"
	"time"
)

// Deliveries: a JSON event {api_version, event_id, event_category,
// event_type, user_id, event_object_id, event_object, occurred_at} is POSTed
// to every ACTIVE configuration of the partner subscribed to its type,
// asynchronously. Headers: X-Timestamp (unix seconds of the sandbox clock
// when the attempt is signed) and X-Signature = hex HMAC-SHA256(apiKey,
// timestamp + "." + body).
//
// Reliability: an attempt that gets no answer within the attempt timeout,
// a transport error or a non-2xx status is retried after whBackoff (1 s,
// 2 s, 4 s, 8 s), at most whMaxAttempts attempts in all. Each attempt is
// recorded (number, time, status or error, duration) on the configuration:
// the latest as lastDelivery, the whole history through
// GET /v1/webhooks/{id}/deliveries (webhook_history.go). The waits go
// through the sandbox clock, so a ManualClock makes them instant.
//
// Outbound traffic: without Options.WebhookClient the sandbox delivers to
// loopback addresses only (localhost, 127.0.0.0/8, ::1), checked both on
// the URL and on the address actually dialled.

// whDefaultTimeout bounds one delivery attempt when Options.WebhookTimeout
// is zero.
const whDefaultTimeout = 10 * time.Second

// whMaxAttempts is how many times one event is sent to one configuration.
const whMaxAttempts = 5

// whBackoff is the wait before attempt n+1 after attempt n failed.
func whBackoff(n int) time.Duration { return time.Second << (n - 1) }

// whAPIVersion is the api_version of the deliveries.
const whAPIVersion = "v1"

// whUserAgent names the sandbox as the sender.
const whUserAgent = "cardterm-sandbox-webhooks/1"

// errNotLoopback refuses a dial to an address off this machine.
var errNotLoopback = errors.New("the sandbox delivers to loopback addresses only")

// whDefaultClient delivers when Options.WebhookClient is nil: loopback
// only, no redirects (a redirect could leave the machine).
var whDefaultClient = &http.Client{
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

// whEvent is the delivery body, in its documented field order.
type whEvent struct {
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

// whTarget is one configuration an event goes to.
type whTarget struct {
	partner *whPartner
	hookID  string
	record  *whDeliveryRec
}

// whDeliver sends body to t, retrying with backoff, and records every
// attempt. The url and key are read afresh for each attempt: after an
// update or a rotation the retries follow them.
func (s *Server) whDeliver(t whTarget, body []byte) {
	for n := 1; ; n++ {
		at := s.now()
		ts := strconv.FormatInt(at.Unix(), 10)
		s.mu.Lock()
		hook := t.partner.find(t.hookID)
		var target, key string
		if hook != nil {
			target, key = hook.URL, hook.APIKey
		}
		s.mu.Unlock()
		if hook == nil {
			s.whFinish(t, whAttempt{Attempt: n, At: at, Error: "not sent: the configuration was deleted"}, whFailed)
			return
		}
		attempt, retry := s.whAttempt(target, key, ts, body)
		attempt.Attempt, attempt.At = n, at
		switch {
		case !retry && attempt.Error == "":
			s.whFinish(t, attempt, whDelivered)
			return
		case !retry || n == whMaxAttempts:
			s.whFinish(t, attempt, whFailed)
			return
		}
		attempt.NextAttemptAt = at.Add(whBackoff(n))
		s.whFinish(t, attempt, whRetrying)
		if !s.sleep(whBackoff(n)) {
			return // the sandbox is closing
		}
	}
}

// whAttempt makes one attempt. retry says whether a failure may succeed
// later (a timeout, a refused connection, a non-2xx answer); a target the
// sandbox will not send to is not retried.
func (s *Server) whAttempt(target, key, ts string, body []byte) (whAttempt, bool) {
	var a whAttempt
	client := s.opts.WebhookClient
	if client == nil {
		client = whDefaultClient
		if !whLoopback(target) {
			a.Error = "not sent: without Options.WebhookClient the sandbox delivers to loopback hosts only"
			return a, false
		}
	}
	timeout := s.opts.WebhookTimeout
	if timeout <= 0 {
		timeout = whDefaultTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		a.Error = "not sent: invalid url"
		return a, false
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", whUserAgent)
	req.Header.Set("X-Timestamp", ts)
	req.Header.Set("X-Signature", WebhookSignature(key, ts, body))
	start := time.Now()
	resp, err := client.Do(req)
	a.DurationMs = time.Since(start).Milliseconds()
	if err != nil {
		a.Error = whShortError(err, timeout)
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

// whShortError is a transport error without the url (which may be long).
func whShortError(err error, timeout time.Duration) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if ue.Timeout() {
			return fmt.Sprintf("no answer within %s", timeout)
		}
		return ue.Err.Error()
	}
	return err.Error()
}

// whLoopback reports whether target's host is a loopback name or address.
func whLoopback(target string) bool {
	u, err := url.Parse(target)
	return err == nil && loopbackHost(u)
}
