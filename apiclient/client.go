// Package apiclient is the typed HTTP client for the Card and Wallet Gateway.
// It owns the wire format, the header rules of each endpoint family, the
// session (in memory only), retries and the one error type. It imports
// nothing else of cardterm.
package apiclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults applied by New when Config leaves a field zero.
const (
	DefaultTimeout      = 15 * time.Second
	DefaultMaxRetryWait = 5 * time.Second
)

const (
	// maxBody bounds how much of a list read as it arrives (request.read)
	// is read: a 100,000-entry whitelist is about 31 MB.
	maxBody = 256 << 20
	// maxAnswerBody bounds any other successful answer, which is read
	// whole before it is decoded: a record or a page is far smaller.
	maxAnswerBody = 16 << 20
	// maxErrorBody is how much of an error answer is read: its message,
	// cut to maxGatewayText, and what the inspector shows.
	maxErrorBody = 64 << 10
)

// Config is what the client needs to reach one gateway as one partner.
type Config struct {
	// BaseURL is the gateway address, e.g. http://127.0.0.1:41234; a
	// trailing slash or a path prefix is fine.
	BaseURL string
	// ClientKey is sent as x-client-key; it selects the tenant and backend.
	ClientKey string
	// ClientID is sent as X-Client-ID on order endpoints (which refuse to
	// send without it: no header is guessed) and used as the OAuth
	// client_id, where "" means ClientKey.
	ClientID string
	// SecretKey is sent as x-secret-key where the interface requires it
	// (OAuth token, consent mutations). "" disables refresh and those calls.
	// Never print it.
	SecretKey string
	// US routes requests to the US backend (x-us-env: true).
	US bool
	// HTTPClient does the transport; nil means a dedicated client.
	HTTPClient *http.Client
	// Timeout bounds each request attempt; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxRetryWait is the longest Retry-After a read answered 429 or 503
	// waits before it is sent again; a longer one is returned as an error
	// at once (and the endpoint stays closed until then, pacing.go).
	// 0 means DefaultMaxRetryWait.
	MaxRetryWait time.Duration
	// MaxInFlight bounds the requests on the wire at once; 0 means
	// DefaultMaxInFlight.
	MaxInFlight int
	// Now is the clock for session expiry and Retry-After dates; nil
	// means time.Now.
	Now func() time.Time
	// UserAgent names the app in requests (gateways record it, e.g. in the
	// consent audit trail); "" means "cardterm".
	UserAgent string
	// Logger, when set, gets one line per HTTP exchange (debuglog.go).
	Logger *slog.Logger
	// ReadOnly sends only the operations that change nothing (read_only.go)
	// and refuses every other one before a byte is sent.
	ReadOnly bool
	// Sandbox says the gateway is known to be the cardterm sandbox (the
	// embedded one this process started), so its sandbox-only calls need
	// no announcement first (sandbox_announce.go).
	Sandbox bool
	// SandboxSecretKey is sent as x-secret-key when SecretKey is "" and the
	// gateway is known to be the sandbox (the demo tenant's public key);
	// never to another gateway.
	SandboxSecretKey string
	// SandboxClientID is sent as X-Client-ID when ClientID is "" and the
	// gateway is known to be the sandbox (its demo tenant's id).
	SandboxClientID string
	// ApprovedSession marks the client of a customer-approved session,
	// which may start its OAuth sign-in in read-only mode.
	ApprovedSession bool
}

// Client talks to one gateway. It is safe for concurrent use: screens load
// their data with several requests at once.
type Client struct {
	cfg Config
	hc  *http.Client

	mu       sync.Mutex
	sess     Session
	onChange func(Session)

	// maxBody overrides the answer limits in tests (0: answerLimit's).
	maxBody int64

	// sandbox is what the latest answer said the gateway is
	// (sandbox_announce.go).
	sandbox atomic.Int32
	// sandboxShift is how far the sandbox's clock runs from ours, in
	// nanoseconds, as its latest answer said (sandbox_time.go).
	sandboxShift atomic.Int64

	// refreshMu makes concurrent 401s share one refresh.
	refreshMu sync.Mutex

	// pace holds Retry-After per endpoint and the in-flight slots.
	pace *pacing

	// sleep waits d or until ctx is done; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

// New applies the defaults of Config and returns a signed-out client.
func New(cfg Config) *Client {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxRetryWait <= 0 {
		cfg.MaxRetryWait = DefaultMaxRetryWait
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "cardterm"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	hc := cfg.HTTPClient
	if hc.CheckRedirect == nil {
		// A copy: the caller's client keeps its own policy elsewhere.
		own := *hc
		own.CheckRedirect = checkRedirect
		hc = &own
	}
	c := &Client{cfg: cfg, hc: withDebugLog(hc, cfg.Logger), sleep: sleepCtx, pace: newPacing(cfg.MaxInFlight)}
	if cfg.Sandbox {
		c.sandbox.Store(gatewayIsSandbox)
	}
	return c
}

// answerLimit is how much of r's successful answer is read: maxBody for a
// list read as it arrives, maxAnswerBody for the rest (Raw's answers too:
// `cardterm api` holds one whole, and documents 16 MiB), or the limit a
// test sets.
func (c *Client) answerLimit(r request) int64 {
	switch {
	case c.maxBody > 0:
		return c.maxBody
	case r.read != nil && !r.raw:
		return maxBody
	}
	return maxAnswerBody
}

// sleepCtx waits d, or less when ctx ends first (then it returns ctx.Err()).
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Config returns the configuration in effect, defaults applied. It includes
// the secret key: never print it.
func (c *Client) Config() Config { return c.cfg }

// do runs r: one attempt, read retries (pacing.go), and one refresh-and-retry on a
// 401 for bearer endpoints when a refresh is possible.
func (c *Client) do(ctx context.Context, r request) error {
	token := ""
	if r.family.bearer() {
		token = c.Session().AccessToken
	}
	err := c.sendRetrying(ctx, r, token)
	if !IsUnauthorized(err) || !r.family.bearer() || r.noRefresh {
		return err
	}
	fresh, why := c.refreshAfter401(ctx, token)
	if fresh == "" {
		return notRenewed(err, why)
	}
	// Exactly one retry with the new token; a second 401 is final.
	return c.sendRetrying(withAttempt(ctx, 1), r, fresh)
}

// answer runs r and returns the gateway's answer decoded as a T; the zero T
// with the error, never a half-read one.
func answer[T any](ctx context.Context, c *Client, r request) (T, error) {
	var out T
	r.out = &out
	if err := c.do(ctx, r); err != nil {
		var zero T
		return zero, err
	}
	return out, nil
}

// sendRetrying sends r, and sends a read again after a failure worth
// retrying, as retryWait (pacing.go) says. Writes are never resent.
func (c *Client) sendRetrying(ctx context.Context, r request, token string) error {
	for attempt := 0; ; attempt++ {
		err := c.send(withAttempt(ctx, attempt), r, token)
		wait, again := c.retryWait(r, err, attempt)
		if !again {
			return err
		}
		until := c.now().Add(wait)
		if err := c.sleep(ctx, wait); err != nil {
			return &Error{Op: r.op, Message: "request cancelled while waiting to retry",
				Err: tag(errCancelled, err)}
		}
		c.pace.reopen(r.path, until) // waited what the gateway asked

	}
}

// send makes one attempt.
func (c *Client) send(ctx context.Context, r request, token string) error {
	if err := ctx.Err(); err != nil {
		return &Error{Op: r.op, Message: "request cancelled", Err: tag(errCancelled, err)}
	}
	if err := c.checkReadOnly(r); err != nil {
		return err
	}
	if err := c.checkSettings(r); err != nil {
		return err
	}
	if err := c.requireSandbox(ctx, r); err != nil {
		return err
	}
	if err := c.holdBack(r); err != nil {
		return err
	}
	req, err := c.build(ctx, r, token)
	if err != nil {
		return err
	}
	if err := c.pace.acquire(ctx); err != nil {
		return &Error{Op: r.op, Message: "request cancelled", Err: tag(errCancelled, err)}
	}
	defer c.pace.release()
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req = req.WithContext(actx)

	resp, err := c.hc.Do(req)
	if err != nil {
		return c.transportError(ctx, actx, r.op, err)
	}
	defer resp.Body.Close()
	c.noteGateway(resp.Header)
	stream, size := answerStream(resp)
	if r.status != nil {
		*r.status = resp.StatusCode
	}
	if r.head != nil {
		r.head(resp)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// Only the head of an error answer is read: its message and what
		// the inspector shows need no more, however much the gateway sent.
		body := &limitedBody{r: stream, limit: math.MaxInt64}
		data, err := io.ReadAll(io.LimitReader(body, maxErrorBody+1))
		if err != nil {
			return c.bodyError(ctx, actx, r.op, resp.StatusCode, body, err)
		}
		e := decodeError(r.op, resp, data, c.now())
		c.noteRetryAfter(r, e)
		c.redact(e, append([]string{token}, r.secrets...)...)
		if wantsBody(ctx) {
			// --json prints an error answer as the gateway sent it.
			captureBody(ctx, c.redactBytes(data, append([]string{token}, r.secrets...)...))
		}
		e.bound()
		return e
	}
	limit := c.answerLimit(r)
	if size > limit {
		size = -1 // not believed: the limit stops it
	}
	body := &limitedBody{r: stream, limit: limit}
	var decoded io.Reader = body
	var streamed *bytes.Buffer
	if r.read != nil && wantsBody(ctx) {
		// A caller printing the gateway's own answer (--json) gets the
		// bytes as they are decoded, not a second read.
		streamed = &bytes.Buffer{}
		decoded = io.TeeReader(body, streamed)
	}
	data, err := decodeBody(decoded, size, r)
	if err != nil {
		return c.bodyError(ctx, actx, r.op, resp.StatusCode, body, err)
	}
	switch {
	case streamed != nil:
		captureBody(ctx, streamed.Bytes())
	case data != nil && wantsBody(ctx):
		captureBody(ctx, data)
	}
	return nil
}

// transportError explains a failure without an HTTP answer: the caller
// cancelled, our per-request timeout struck, or the network failed.
func (c *Client) transportError(ctx, actx context.Context, op string, err error) *Error {
	switch {
	case ctx.Err() != nil:
		return &Error{Op: op, Message: "request cancelled", Err: tag(errCancelled, ctx.Err())}
	case actx.Err() != nil:
		return &Error{Op: op, Message: fmt.Sprintf("the gateway did not answer within %s", c.cfg.Timeout),
			Err: tag(errTimeout, context.DeadlineExceeded)}
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return &Error{Op: op, Message: "the gateway did not answer in time", Err: err}
	}
	return &Error{Op: op, Message: "cannot reach the gateway", Err: err}
}

// redact removes our own secrets from what the gateway echoed back, so an
// Error can be shown and logged safely: the session's tokens, the secret
// key, and extra (the token this request was sent with, which a concurrent
// refresh may already have replaced in the session, and request secrets).
func (c *Client) redact(e *Error, extra ...string) {
	s := c.Session()
	secrets := append([]string{s.AccessToken, s.RefreshToken, c.secretKey()}, extra...)
	clean := func(v string) string {
		for _, sec := range secrets {
			if len(sec) >= 8 && strings.Contains(v, sec) {
				v = strings.ReplaceAll(v, sec, "[redacted]")
			}
		}
		return v
	}
	e.rewriteGatewayText(clean)
	if body := string(e.Body); clean(body) != body {
		e.Body = []byte(clean(body))
	}
}
