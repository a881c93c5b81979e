package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// t0 is the ManualClock start of the tests.
var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// env is a sandbox served over real HTTP for one test.
type env struct {
	t     *testing.T
	ts    *httptest.Server
	s     *Server
	clock *ManualClock
}

// newEnv starts a sandbox on a ManualClock (unless opts has a clock).
func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	clock := NewManualClock(t0)
	if opts.Clock == nil {
		opts.Clock = clock
	}
	s := New(opts)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return &env{t: t, ts: ts, s: s, clock: clock}
}

// resp is a decoded answer.
type resp struct {
	Status int
	Header http.Header
	Raw    []byte
	JSON   map[string]any
}

// str reads a top-level string field.
func (r resp) str(k string) string { s, _ := r.JSON[k].(string); return s }

// hdr builds headers from key/value pairs.
func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return h
}

// HeaderPairs is hdr for the contract tests, which live in package
// sandbox_test (test files export to it this way).
var HeaderPairs = hdr

// ck is the demo client key header, plus more pairs.
func ck(kv ...string) http.Header {
	return hdr(append([]string{"x-client-key", DemoClientKey}, kv...)...)
}

// do sends one request; body is JSON-encoded unless it is a string.
func (e *env) do(method, path string, h http.Header, body any) resp {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, _ := json.Marshal(b)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.ts.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	for k, v := range h {
		req.Header[k] = v
	}
	if body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := noRedirect.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	r := resp{Status: res.StatusCode, Header: res.Header, Raw: raw}
	_ = json.Unmarshal(raw, &r.JSON)
	return r
}

var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// login signs username in on the demo client (plus extra headers) and
// returns the access and refresh tokens.
func (e *env) login(username string, extra ...string) (access, refresh string) {
	e.t.Helper()
	r := e.do("POST", "/v1/auth/login", ck(extra...), map[string]string{"username": username, "password": "demo-pass"})
	if r.Status != 200 {
		e.t.Fatalf("login %s: %d %s", username, r.Status, r.Raw)
	}
	return r.str("accessToken"), r.str("refreshToken")
}

// bearer is the demo client key plus a bearer token, plus more pairs.
func bearer(tok string, kv ...string) http.Header {
	return ck(append([]string{"Authorization", "Bearer " + tok}, kv...)...)
}

// want checks status and, when msg is not empty, the message field.
func want(t *testing.T, r resp, status int, msg string) {
	t.Helper()
	if r.Status != status {
		t.Fatalf("status %d, want %d; body %s", r.Status, status, r.Raw)
	}
	if msg != "" && r.str("message") != msg {
		t.Fatalf("message %q, want %q; body %s", r.str("message"), msg, r.Raw)
	}
}
