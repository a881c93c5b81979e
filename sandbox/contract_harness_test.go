package sandbox_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"testing"

	"cardterm/sandbox"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// harness is a sandbox over real HTTP plus the document's router.
type harness struct {
	t       *testing.T
	ts      *httptest.Server
	srv     *sandbox.Server
	clock   *sandbox.ManualClock
	router  routers.Router
	opts    *openapi3filter.Options
	covered map[string]bool
}

func newHarness(t *testing.T, doc *openapi3.T, opts sandbox.Options, covered map[string]bool) *harness {
	t.Helper()
	clock := sandbox.NewManualClock(contractT0)
	opts.Clock = clock
	srv := sandbox.New(opts)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	d := *doc // the same paths, served from the test server
	d.Servers = openapi3.Servers{{URL: ts.URL}}
	router, err := gorillamux.NewRouter(&d)
	if err != nil {
		t.Fatalf("router: %v", err)
	}
	return &harness{
		t: t, ts: ts, srv: srv, clock: clock, router: router, covered: covered,
		opts: &openapi3filter.Options{
			AuthenticationFunc:                openapi3filter.NoopAuthenticationFunc, // the sandbox enforces auth; the test checks its answers
			IncludeResponseStatus:             true,                                  // an undocumented status fails
			RejectWhenRequestBodyNotSpecified: true,
			SkipSettingDefaults:               true,
			MultiError:                        true,
		},
	}
}

// req is one scripted call.
type req struct {
	method, path string
	hdr          http.Header
	body         any // nil, string (raw JSON), url.Values (form) or a JSON value
	want         int
	// badRequest: the request deliberately breaks the document (a missing
	// required header, field or parameter); its validation must fail.
	badRequest bool
	// disagreement: the id of a known disagreement this answer shows.
	disagreement string
}

// res is an answer.
type res struct {
	status int
	header http.Header
	raw    []byte
	body   any
}

func (r res) obj() map[string]any { m, _ := r.body.(map[string]any); return m }
func (r res) arr() []any          { a, _ := r.body.([]any); return a }
func (r res) str(k string) string { s, _ := r.obj()[k].(string); return s }

var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// build makes an http.Request for c.
func (h *harness) build(c req) *http.Request {
	var raw []byte
	ctype := ""
	switch b := c.body.(type) {
	case nil:
	case string:
		raw, ctype = []byte(b), "application/json"
	case url.Values:
		raw, ctype = []byte(b.Encode()), "application/x-www-form-urlencoded"
	default:
		j, err := json.Marshal(b)
		if err != nil {
			h.t.Fatal(err)
		}
		raw, ctype = j, "application/json"
	}
	var rd io.Reader
	if raw != nil {
		rd = bytes.NewReader(raw)
	}
	r, err := http.NewRequest(c.method, h.ts.URL+c.path, rd)
	if err != nil {
		h.t.Fatal(err)
	}
	for k, v := range c.hdr {
		r.Header[k] = v
	}
	if ctype != "" && r.Header.Get("Content-Type") == "" {
		r.Header.Set("Content-Type", ctype)
	}
	return r
}

// do runs c as a subtest named name: validates the request against the
// document, sends it, checks the status, validates the answer.
func (h *harness) do(name string, c req) res {
	h.t.Helper()
	var out res
	h.t.Run(name, func(t *testing.T) {
		out = h.run(t, c)
	})
	return out
}

func (h *harness) run(t *testing.T, c req) res {
	ctx := context.Background()
	vreq := h.build(c)
	route, params, findErr := h.router.FindRoute(vreq)
	var input *openapi3filter.RequestValidationInput
	if findErr != nil {
		t.Errorf("%s %s: no operation of the document matches: %v", c.method, c.path, findErr)
	} else {
		h.covered[opKey(route.Method, route.Path)] = true
		input = &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route, Options: h.opts}
		err := openapi3filter.ValidateRequest(ctx, input)
		switch {
		case c.badRequest && err == nil:
			t.Errorf("%s %s: the request was meant to break the document but validates", c.method, c.path)
		case !c.badRequest && err != nil:
			t.Errorf("%s %s: the request does not match the document: %v", c.method, c.path, err)
		}
	}

	hr, err := noFollow.Do(h.build(c))
	if err != nil {
		t.Fatalf("%s %s: %v", c.method, c.path, err)
	}
	raw, _ := io.ReadAll(hr.Body)
	hr.Body.Close()
	out := res{status: hr.StatusCode, header: hr.Header, raw: raw}
	_ = json.Unmarshal(raw, &out.body)
	if out.status != c.want {
		t.Errorf("%s %s: status %d, want %d; body %.300s", c.method, c.path, out.status, c.want, raw)
	}
	if input == nil {
		return out
	}
	rin := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: input, Status: out.status, Header: hr.Header, Options: h.opts,
	}
	rin.SetBodyBytes(raw)
	verr := openapi3filter.ValidateResponse(ctx, rin)
	switch {
	case verr != nil && c.disagreement != "":
		t.Errorf("DISAGREEMENT[%s] %s\n  answer %d %.300s\n  validation: %v", c.disagreement, disagreements[c.disagreement], out.status, raw, verr)
	case verr != nil:
		t.Errorf("%s %s: the answer %d does not match the document: %v\n  body %.300s", c.method, c.path, out.status, verr, raw)
	case c.disagreement != "":
		t.Errorf("disagreement %q no longer reproduces (the answer %d matches the document): remove its marker", c.disagreement, out.status)
	}
	return out
}

// Header helpers. hdrs builds headers from key/value pairs.
var hdrs = sandbox.HeaderPairs

func withKey(kv ...string) http.Header {
	return hdrs(append([]string{"x-client-key", sandbox.DemoClientKey}, kv...)...)
}

func withBearer(tok string, kv ...string) http.Header {
	return withKey(append([]string{"Authorization", "Bearer " + tok}, kv...)...)
}

// withSecret is the demo client key and secret key, plus more pairs: the
// consent writes, the OAuth token exchange and the sandbox tools.
func withSecret(kv ...string) http.Header {
	return withKey(append([]string{"x-secret-key", sandbox.DemoSecretKey}, kv...)...)
}

// bearerOnly is the bearer token alone: webhook endpoints take no client key.
func bearerOnly(tok string) http.Header { return hdrs("Authorization", "Bearer "+tok) }

// unknownID is a well-formed id that names nothing, for the 404 calls.
const unknownID = "00000000-0000-4000-8000-000000000000"

// checkf reports a failed expectation about an answer's content.
func checkf(t *testing.T, ok bool, format string, args ...any) {
	t.Helper()
	if !ok {
		t.Errorf(format, args...)
	}
}

var hiddenSession = regexp.MustCompile(`name="session" value="([^"]+)"`)
