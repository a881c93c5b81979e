// Package apiclient is the typed HTTP client for the Card and Wallet Gateway.
// It owns the wire format, the header rules of each endpoint family, the
// session (in memory only), retries and the one error type. It imports
// nothing else of cardterm.
package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Defaults applied by New when Config leaves a field zero.
const (
	DefaultTimeout      = 15 * time.Second
	DefaultMaxRetryWait = 5 * time.Second
)

const (
	// maxGETRetries bounds how often a GET answered 429 is sent again.
	maxGETRetries = 2
	// defaultRetryWait is how long a 429 without Retry-After makes us wait.
	defaultRetryWait = time.Second
	// maxBody bounds how much of any answer is read: a 100,000-entry
	// whitelist is about 31 MB.
	maxBody = 256 << 20
)

// Config is what the client needs to reach one gateway as one partner.
type Config struct {
	// BaseURL is the gateway address, e.g. http://127.0.0.1:41234; a
	// trailing slash or a path prefix is fine.
	BaseURL string
	// ClientKey is sent as x-client-key; it selects the tenant and backend.
	ClientKey string
	// ClientID is sent as X-Client-ID on order endpoints and used as the
	// OAuth client_id; "" means ClientKey.
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
	// MaxRetryWait is the longest Retry-After a GET answered 429 waits
	// before retrying; a longer one is returned as an error at once.
	// 0 means DefaultMaxRetryWait.
	MaxRetryWait time.Duration
	// Now is the clock for session expiry and Retry-After dates; nil
	// means time.Now.
	Now func() time.Time
	// UserAgent names the app in requests (gateways record it, e.g. in the
	// consent audit trail); "" means "cardterm".
	UserAgent string
	// Logger, when set, gets one line per HTTP exchange (debuglog.go).
	Logger *slog.Logger
}

// Client talks to one gateway. It is safe for concurrent use: screens load
// their data with several requests at once.
type Client struct {
	cfg Config
	hc  *http.Client

	mu       sync.Mutex
	sess     Session
	onChange func(Session)

	// maxBody overrides the body limit in tests (0: maxBody).
	maxBody int64

	// refreshMu makes concurrent 401s share one refresh.
	refreshMu sync.Mutex

	// sleep waits d or until ctx is done; tests replace it.
	sleep func(ctx context.Context, d time.Duration) error
}

// New applies the defaults of Config and returns a signed-out client.
func New(cfg Config) *Client {
	if cfg.ClientID == "" {
		cfg.ClientID = cfg.ClientKey
	}
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
	return &Client{cfg: cfg, hc: withDebugLog(hc, cfg.Logger), sleep: sleepCtx}
}

// bodyLimit is maxBody, or the smaller limit a test sets.
func (c *Client) bodyLimit() int64 {
	if c.maxBody > 0 {
		return c.maxBody
	}
	return maxBody
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

// Session returns a copy of the current session; the zero Session when
// signed out.
func (c *Client) Session() Session {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sess
}

// SetSession installs a session obtained elsewhere (the OAuth code exchange,
// a test) and notifies OnSessionChange.
func (c *Client) SetSession(s Session) { c.setSession(s) }

// ClearSession signs out locally, without telling the gateway; it notifies
// OnSessionChange when there was a session.
func (c *Client) ClearSession() {
	c.mu.Lock()
	had := c.sess != (Session{})
	c.sess = Session{}
	cb := c.onChange
	c.mu.Unlock()
	if had && cb != nil {
		cb(Session{})
	}
}

// OnSessionChange registers fn, called from the request goroutine whenever
// the session changes (Login, Refresh, Logout, a 401 that ends it, or
// SetSession/ClearSession), so the status bar and sign-in screen can follow.
// nil removes it. fn must not block.
func (c *Client) OnSessionChange(fn func(Session)) {
	c.mu.Lock()
	c.onChange = fn
	c.mu.Unlock()
}

func (c *Client) setSession(s Session) {
	c.mu.Lock()
	c.sess = s
	cb := c.onChange
	c.mu.Unlock()
	if cb != nil {
		cb(s)
	}
}

// clearIfToken ends the session only if it still holds token, so a late
// 401 for an old token never signs out a newer session.
func (c *Client) clearIfToken(token string) {
	c.mu.Lock()
	if token == "" || c.sess.AccessToken != token {
		c.mu.Unlock()
		return
	}
	c.sess = Session{}
	cb := c.onChange
	c.mu.Unlock()
	if cb != nil {
		cb(Session{})
	}
}

func (c *Client) now() time.Time { return c.cfg.Now() }

// family is the set of identification headers an endpoint wants.
type family uint8

const (
	// famUser: x-client-key and the bearer token (card, wallet, user,
	// delegation, logout).
	famUser family = iota
	// famClient: x-client-key only (login, consent reads).
	famClient
	// famSecret: x-client-key and x-secret-key (OAuth token, consent
	// link, revoke and creation).
	famSecret
	// famOrder: X-Client-ID and the bearer token (order endpoints).
	famOrder
	// famWebhook: the bearer token only.
	famWebhook
)

func (f family) bearer() bool { return f == famUser || f == famOrder || f == famWebhook }

// usMode says where x-us-env goes when Config.US is set.
type usMode uint8

const (
	usHeader usMode = iota // header x-us-env: true (the common case)
	usQuery                // query x-us-env=true (whitelist, withdrawal)
	usBoth                 // both, for endpoints documented inconsistently
	usNone                 // never (webhooks)
)

// request describes one call; every operation is a short function that
// fills one in and calls do.
type request struct {
	op     string
	method string
	// path is the escaped path under BaseURL; build it with pathf when it
	// carries values.
	path  string
	query url.Values
	// body is JSON-encoded when non-nil; Content-Type is sent only then.
	body   any
	family family
	us     usMode
	// out receives the decoded 2xx body; nil discards it.
	out any
	// read, when set, takes the 2xx body as it arrives instead of out (a
	// big list decoded while it is received). Its errors from the body
	// (the limit, the network, the syntax) are reported like out's.
	read func(body io.Reader) error
	// status, when non-nil, receives the final HTTP status (e.g. 207).
	status *int
	// noRefresh disables the 401 refresh-and-retry (auth endpoints).
	noRefresh bool
	// secrets are values of this request (a delegation token in the body)
	// that must be removed from an error the gateway echoes them in.
	secrets []string
}

// pathf formats a path, escaping every argument as one path segment.
func pathf(format string, args ...string) string {
	esc := make([]any, len(args))
	for i, a := range args {
		esc[i] = url.PathEscape(a)
	}
	return fmt.Sprintf(format, esc...)
}

// do runs r: one attempt, GET 429 retries, and one refresh-and-retry on a
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

// refreshAfter401 handles a 401 answered to token: it returns a token to
// retry with, refreshing at most once for all concurrent callers, or ""
// and why the session could not be renewed (after ending the session when
// the gateway refused the refresh or none is possible).
func (c *Client) refreshAfter401(ctx context.Context, token string) (string, error) {
	if token == "" {
		return "", nil
	}
	c.refreshMu.Lock()
	defer c.refreshMu.Unlock()
	s := c.Session()
	if !s.Valid() {
		return "", nil
	}
	if s.AccessToken != token {
		// Someone refreshed (or signed in again) while we waited.
		return s.AccessToken, nil
	}
	if s.RefreshToken == "" || c.cfg.SecretKey == "" {
		c.clearIfToken(token)
		if c.cfg.SecretKey == "" {
			return "", errors.New("no secret key is configured")
		}
		return "", errors.New("there is no refresh token")
	}
	ns, err := c.refreshLocked(ctx)
	if err != nil {
		var e *Error
		if errors.As(err, &e) && e.Status != 0 {
			// The gateway said no: the session is over.
			c.clearIfToken(token)
		}
		return "", err
	}
	return ns.AccessToken, nil
}

// notRenewed adds to a 401 why the session could not be renewed, so the
// user reads "refresh token expired" rather than a bare "Not authenticated".
func notRenewed(err, why error) error {
	var e *Error
	if why == nil || !errors.As(err, &e) {
		return err
	}
	reason := why.Error()
	var we *Error
	if errors.As(why, &we) && we.Message != "" {
		reason = we.Message
	}
	out := *e
	out.Message = e.Message + "; the session could not be renewed: " + reason
	return &out
}

// sendRetrying sends r, and for a GET answered 429 waits Retry-After (when
// it is within MaxRetryWait) and sends it again, at most maxGETRetries
// times. Mutations are never resent.
func (c *Client) sendRetrying(ctx context.Context, r request, token string) error {
	for attempt := 0; ; attempt++ {
		err := c.send(withAttempt(ctx, attempt), r, token)
		var e *Error
		if r.method != http.MethodGet || attempt >= maxGETRetries ||
			!errors.As(err, &e) || e.Status != http.StatusTooManyRequests {
			return err
		}
		wait := e.RetryAfter
		if wait == 0 {
			wait = min(defaultRetryWait, c.cfg.MaxRetryWait)
		}
		if wait > c.cfg.MaxRetryWait {
			return err
		}
		if err := c.sleep(ctx, wait); err != nil {
			return &Error{Op: r.op, Message: "request cancelled while waiting to retry",
				Err: tag(errCancelled, err)}
		}
	}
}

// send makes one attempt.
func (c *Client) send(ctx context.Context, r request, token string) error {
	if err := ctx.Err(); err != nil {
		return &Error{Op: r.op, Message: "request cancelled", Err: tag(errCancelled, err)}
	}
	if err := c.checkSettings(r); err != nil {
		return err
	}
	req, err := c.build(ctx, r, token)
	if err != nil {
		return err
	}
	actx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	req = req.WithContext(actx)

	resp, err := c.hc.Do(req)
	if err != nil {
		return c.transportError(ctx, actx, r.op, err)
	}
	defer resp.Body.Close()
	body := &limitedBody{r: resp.Body, left: c.bodyLimit()}
	if r.status != nil {
		*r.status = resp.StatusCode
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, err := io.ReadAll(body)
		if err != nil {
			return c.bodyError(ctx, actx, r.op, resp.StatusCode, body, err)
		}
		e := decodeError(r.op, resp, data, c.now())
		c.redact(e, append([]string{token}, r.secrets...)...)
		return e
	}
	var decoded io.Reader = body
	var captured *bytes.Buffer
	if wantsBody(ctx) {
		// A caller printing the gateway's own answer (--json) gets the
		// bytes as they are decoded, not a second read.
		captured = &bytes.Buffer{}
		decoded = io.TeeReader(body, captured)
	}
	if err := decodeBody(decoded, r); err != nil {
		return c.bodyError(ctx, actx, r.op, resp.StatusCode, body, err)
	}
	if captured != nil {
		captureBody(ctx, captured.Bytes())
	}
	return nil
}

// build makes the *http.Request with the headers of r's family.
func (c *Client) build(ctx context.Context, r request, token string) (*http.Request, error) {
	base := strings.TrimRight(c.cfg.BaseURL, "/")
	if u, err := url.Parse(base); err != nil || u.Scheme == "" || u.Host == "" {
		return nil, &Error{Op: r.op, Message: fmt.Sprintf("invalid gateway address %q", c.cfg.BaseURL)}
	}
	q := url.Values{}
	for k, vs := range r.query {
		q[k] = append([]string(nil), vs...)
	}
	us := c.cfg.US && r.us != usNone && r.family != famWebhook
	if us && (r.us == usQuery || r.us == usBoth) {
		q.Set("x-us-env", "true")
	}
	target := base + r.path
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	var body io.Reader
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return nil, &Error{Op: r.op, Message: "cannot encode the request", Err: tag(errRequest, err)}
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, target, body)
	if err != nil {
		return nil, &Error{Op: r.op, Message: "cannot build the request", Err: tag(errRequest, err)}
	}
	h := req.Header
	h.Set("Accept", "application/json")
	h.Set("User-Agent", c.cfg.UserAgent)
	if r.body != nil {
		h.Set("Content-Type", "application/json")
	}
	// An empty credential is left out rather than sent empty, so the
	// gateway reports it missing (499) rather than invalid (498).
	set := func(name, value string) {
		if value != "" {
			h.Set(name, value)
		}
	}
	switch r.family {
	case famUser, famClient, famSecret:
		set("x-client-key", c.cfg.ClientKey)
	case famOrder:
		set("X-Client-ID", c.cfg.ClientID)
	}
	if r.family == famSecret {
		set("x-secret-key", c.cfg.SecretKey)
	}
	if r.family.bearer() && token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	if us && (r.us == usHeader || r.us == usBoth) {
		h.Set("x-us-env", "true")
	}
	return req, nil
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
	secrets := append([]string{s.AccessToken, s.RefreshToken, c.cfg.SecretKey}, extra...)
	clean := func(v string) string {
		for _, sec := range secrets {
			if len(sec) >= 8 && strings.Contains(v, sec) {
				v = strings.ReplaceAll(v, sec, "[redacted]")
			}
		}
		return v
	}
	e.Message = clean(e.Message)
	e.Code = clean(e.Code)
	for i := range e.Details {
		e.Details[i] = clean(e.Details[i])
	}
	for i := range e.Fields {
		e.Fields[i].Message = clean(e.Fields[i].Message)
	}
}
