package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// A request as every operation describes it, and the HTTP request built
// from it with the headers of its endpoint family.

// family is the set of identification headers an endpoint wants.
type family uint8

const (
	// familyUser: x-client-key and the bearer token (card, wallet, user,
	// delegation, logout).
	familyUser family = iota
	// familyClient: x-client-key only (login, consent reads).
	familyClient
	// familySecret: x-client-key and x-secret-key (OAuth token, consent
	// link, revoke and creation).
	familySecret
	// familyOrder: X-Client-ID and the bearer token (order endpoints).
	familyOrder
	// familyWebhook: the bearer token only.
	familyWebhook
)

func (f family) bearer() bool { return f == familyUser || f == familyOrder || f == familyWebhook }

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
	// head, when non-nil, is shown each answer's status line and headers
	// (the last one call is the final answer's).
	head func(*http.Response)
	// noRefresh disables the 401 refresh-and-retry (auth endpoints).
	noRefresh bool
	// secrets are values of this request (a delegation token in the body)
	// that must be removed from an error the gateway echoes them in.
	secrets []string
	// header holds headers the caller adds (cardterm api -H); each
	// replaces the client's own of that name.
	header http.Header
	// raw marks a request of Raw (`cardterm api`): read-only mode lets it
	// send only the interface's reads.
	raw bool
	// sandboxOnly marks a call only the sandbox answers: it is sent only
	// to a gateway that announced itself as the sandbox.
	sandboxOnly bool
}

// pathf formats a path, escaping every argument as one path segment.
func pathf(format string, args ...string) string {
	esc := make([]any, len(args))
	for i, a := range args {
		esc[i] = url.PathEscape(a)
	}
	return fmt.Sprintf(format, esc...)
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
	us := c.cfg.US && r.us != usNone && r.family != familyWebhook
	if us && (r.us == usQuery || r.us == usBoth) {
		q.Set("x-us-env", "true")
	}
	target := base + r.path
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	var body io.Reader
	if raw, ok := r.body.(json.RawMessage); ok {
		body = bytes.NewReader(raw) // cardterm api: the caller's bytes, unchanged
	} else if r.body != nil {
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
	// Asked for by us, so net/http leaves the body compressed and
	// answerStream decompresses it, watching what it grows to.
	h.Set("Accept-Encoding", "gzip")
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
	case familyUser, familyClient, familySecret:
		set("x-client-key", c.cfg.ClientKey)
	case familyOrder:
		set("X-Client-ID", c.clientID())
	}
	if r.family == familySecret {
		set("x-secret-key", c.secretKey())
	}
	if r.family.bearer() && token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	if us && (r.us == usHeader || r.us == usBoth) {
		h.Set("x-us-env", "true")
	}
	for name, values := range r.header {
		h[http.CanonicalHeaderKey(name)] = values
	}
	return req, nil
}
