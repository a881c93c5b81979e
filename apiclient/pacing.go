package apiclient

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"time"
)

// Pacing: how the client stays polite to a gateway under pressure. Every
// request goes through here, so the screens, the alerts, polling and the
// command line (and a later `get --watch`) wait the same way:
//
//   - a 429 or 503 with Retry-After closes its endpoint (the path, query
//     aside) until that time; a request to it before then is refused
//     here, with the time, and nothing is sent;
//   - a read (GET, HEAD) answered 429, 502, 503 or 504 is sent again at
//     most maxReadRetries times, after Retry-After when it is within
//     MaxRetryWait, else after a jittered backoff; a write is never sent
//     again, nor a read the network lost (a gateway that is down says so
//     at once);
//   - at most MaxInFlight requests of one client are on the wire at once.

const (
	// maxReadRetries bounds how often a read is sent again.
	maxReadRetries = 2
	// retryBase is the first backoff of a read retried without a
	// Retry-After; each retry doubles it, and the wait is jittered.
	retryBase = 500 * time.Millisecond
	// DefaultMaxInFlight bounds a client's requests on the wire at once.
	DefaultMaxInFlight = 6
)

// errRateLimited tags a request refused because the gateway asked to wait.
var errRateLimited = errors.New("the gateway asked to wait")

// IsRateLimited reports whether err is a request refused without being
// sent because the gateway's Retry-After has not passed yet.
func IsRateLimited(err error) bool { return errors.Is(err, errRateLimited) }

// pacing is the client's memory of Retry-After and its in-flight slots.
type pacing struct {
	mu        sync.Mutex
	notBefore map[string]time.Time // path → the time the gateway named
	slots     chan struct{}
}

func newPacing(maxInFlight int) *pacing {
	if maxInFlight <= 0 {
		maxInFlight = DefaultMaxInFlight
	}
	return &pacing{notBefore: map[string]time.Time{}, slots: make(chan struct{}, maxInFlight)}
}

// acquire takes an in-flight slot, or fails when ctx ends first.
func (p *pacing) acquire(ctx context.Context) error {
	select {
	case p.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (p *pacing) release() { <-p.slots }

// closedUntil is when path opens again, or the zero time when it is open.
func (p *pacing) closedUntil(path string, now time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	until, ok := p.notBefore[path]
	if ok && !now.Before(until) {
		delete(p.notBefore, path)
		return time.Time{}
	}
	return until
}

// reopen opens path when the time it was shut until has come, by the
// retrier's own wait (which may run on another clock than Config.Now).
func (p *pacing) reopen(path string, until time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.notBefore[path].After(until) {
		delete(p.notBefore, path)
	}
}

// close keeps path shut until until (a later time wins).
func (p *pacing) close(path string, until time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if until.After(p.notBefore[path]) {
		p.notBefore[path] = until
	}
}

// RetryAt is when the gateway said path may be asked again (a 429 or 503
// with Retry-After), or the zero time when nothing holds it back. Polling
// schedules its next look from it.
func (c *Client) RetryAt(path string) time.Time {
	return c.pace.closedUntil(path, c.now())
}

// holdBack refuses r when the gateway asked to wait for its endpoint.
func (c *Client) holdBack(r request) error {
	until := c.pace.closedUntil(r.path, c.now())
	if until.IsZero() {
		return nil
	}
	wait := until.Sub(c.now())
	return &Error{Op: r.op, Status: 0, RetryAfter: wait, Err: errRateLimited,
		Message: fmt.Sprintf("the gateway asked to wait until %s; nothing sent", until.Local().Format(time.TimeOnly))}
}

// noteRetryAfter closes r's endpoint when the answer asks to wait.
func (c *Client) noteRetryAfter(r request, e *Error) {
	if e.RetryAfter > 0 && (e.Status == http.StatusTooManyRequests || e.Status == http.StatusServiceUnavailable) {
		c.pace.close(r.path, c.now().Add(e.RetryAfter))
	}
}

// isRead reports whether r changes nothing, so sending it again is safe.
func isRead(r request) bool { return r.method == http.MethodGet || r.method == http.MethodHead }

// retryWait is how long to wait before sending a read again after err on
// attempt (0 for the first), or false when it is not sent again.
func (c *Client) retryWait(r request, err error, attempt int) (time.Duration, bool) {
	if !isRead(r) || attempt >= maxReadRetries || err == nil || IsCancelled(err) || IsRateLimited(err) {
		return 0, false
	}
	var e *Error
	if !errors.As(err, &e) {
		return 0, false
	}
	switch e.Status {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
	default:
		return 0, false
	}
	if e.RetryAfter > 0 {
		return e.RetryAfter, e.RetryAfter <= c.cfg.MaxRetryWait
	}
	backoff := min(retryBase<<attempt, c.cfg.MaxRetryWait)
	// Half fixed, half random: clients that failed together do not come
	// back together.
	return backoff/2 + rand.N(backoff/2+1), true
}

// IsCancelled reports whether err is a request the caller cancelled.
func IsCancelled(err error) bool { return errors.Is(err, errCancelled) }
