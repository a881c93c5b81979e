package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// seen is one request as a test server received it.
type seen struct {
	Method, Path, RawQuery string
	Header                 http.Header
	Body                   string
}

// recorder is a test gateway: it records requests and answers with the
// handler for "METHOD /path", or 404.
type recorder struct {
	mu       sync.Mutex
	reqs     []seen
	handlers map[string]http.HandlerFunc
	srv      *httptest.Server
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	rec := &recorder{handlers: map[string]http.HandlerFunc{}}
	rec.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(b))
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, seen{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Clone(), string(b)})
		h := rec.handlers[r.Method+" "+r.URL.Path]
		rec.mu.Unlock()
		if h == nil {
			w.WriteHeader(404)
			fmt.Fprint(w, `{"message":"no such route"}`)
			return
		}
		h(w, r)
	}))
	t.Cleanup(rec.srv.Close)
	return rec
}

func (rec *recorder) handle(route string, h http.HandlerFunc) {
	rec.mu.Lock()
	rec.handlers[route] = h
	rec.mu.Unlock()
}

func (rec *recorder) json(route string, status int, body string) {
	rec.handle(route, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	})
}

func (rec *recorder) requests() []seen {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return append([]seen(nil), rec.reqs...)
}

func (rec *recorder) count(method, path string) int {
	n := 0
	for _, s := range rec.requests() {
		if s.Method == method && s.Path == path {
			n++
		}
	}
	return n
}

func (rec *recorder) last() seen {
	r := rec.requests()
	return r[len(r)-1]
}

var t0 = time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)

func testClient(rec *recorder, mod ...func(*Config)) *Client {
	cfg := Config{BaseURL: rec.srv.URL, ClientKey: "ck_test", ClientID: "cid_test", SecretKey: "sk_test_secret",
		Now: func() time.Time { return t0 }}
	for _, m := range mod {
		m(&cfg)
	}
	return New(cfg)
}

const cardJSON = `{"id":"card-1","holderName":"ALICE DOE","expiryDate":"2031/05","panLast4":"4242","status":"ACTIVE","type":"VIRTUAL","orderedAt":"2030-01-01T00:00:00Z"}`

func TestConfigDefaults(t *testing.T) {
	c := New(Config{BaseURL: "http://x", ClientKey: "ck", SecretKey: "sk"})
	cfg := c.Config()
	if cfg.ClientID != "" || cfg.Timeout != DefaultTimeout || cfg.MaxRetryWait != DefaultMaxRetryWait ||
		cfg.Now == nil || cfg.HTTPClient == nil || cfg.SecretKey != "sk" {
		t.Errorf("defaults not applied: %+v", cfg)
	}
	c = New(Config{BaseURL: "http://x", ClientKey: "ck", ClientID: "cid"})
	if c.Config().ClientID != "cid" {
		t.Error("explicit ClientID overwritten")
	}
	if c.Session().Valid() {
		t.Error("new client has a session")
	}
}

func TestHeaderRulesPerFamily(t *testing.T) {
	rec := newRecorder(t)
	rec.handle("GET /any", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{}`) })
	rec.handle("POST /any", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{}`) })
	for _, us := range []bool{false, true} {
		c := testClient(rec, func(cfg *Config) { cfg.US = us; cfg.ClientID = "cid_test" })
		c.SetSession(Session{AccessToken: "access-1", RefreshToken: "refresh-1"})
		tests := []struct {
			fam                                       family
			clientKey, clientID, bearer, secret, usHd bool
		}{
			{familyUser, true, false, true, false, true},
			{familyClient, true, false, false, false, true},
			{familySecret, true, false, false, true, true},
			{familyOrder, false, true, true, false, true},
			{familyWebhook, false, false, true, false, false},
		}
		for _, tt := range tests {
			for _, withBody := range []bool{false, true} {
				r := request{op: "T", method: http.MethodGet, path: "/any", family: tt.fam}
				if withBody {
					r.method = http.MethodPost
					r.body = map[string]string{"a": "b"}
				}
				if err := c.do(context.Background(), r); err != nil {
					t.Fatal(err)
				}
				h := rec.last().Header
				check := func(name, want string, present bool) {
					t.Helper()
					got, ok := h[http.CanonicalHeaderKey(name)]
					switch {
					case present && (!ok || got[0] != want):
						t.Errorf("us=%v fam=%d body=%v: %s = %q, want %q", us, tt.fam, withBody, name, got, want)
					case !present && ok:
						t.Errorf("us=%v fam=%d body=%v: %s sent (%q), must not be", us, tt.fam, withBody, name, got)
					}
				}
				check("x-client-key", "ck_test", tt.clientKey)
				check("X-Client-ID", "cid_test", tt.clientID)
				check("Authorization", "Bearer access-1", tt.bearer)
				check("x-secret-key", "sk_test_secret", tt.secret)
				check("x-us-env", "true", us && tt.usHd)
				check("Content-Type", "application/json", withBody)
				check("User-Agent", "cardterm", true)
				if withBody && rec.last().Body != `{"a":"b"}` {
					t.Errorf("body = %q", rec.last().Body)
				}
				if !withBody && rec.last().Body != "" {
					t.Errorf("GET sent a body %q", rec.last().Body)
				}
			}
		}
	}
}

func TestUSEnvInQuery(t *testing.T) {
	rec := newRecorder(t)
	rec.json("GET /v1/wallet/whitelist", 200, `[]`)
	for _, tt := range []struct {
		us           bool
		mode         usMode
		query        string
		header       bool
		wantQueryHas bool
	}{
		{false, usQuery, "currency=usdc", false, false},
		{true, usQuery, "currency=usdc&x-us-env=true", false, true},
		{true, usBoth, "currency=usdc&x-us-env=true", true, true},
		{true, usNone, "currency=usdc", false, false},
		{true, usHeader, "currency=usdc", true, false},
	} {
		c := testClient(rec, func(cfg *Config) { cfg.US = tt.us })
		var out []any
		err := c.do(context.Background(), request{op: "Whitelist", method: "GET", path: "/v1/wallet/whitelist",
			query: map[string][]string{"currency": {"usdc"}}, family: familyUser, us: tt.mode, out: &out})
		if err != nil {
			t.Fatal(err)
		}
		got := rec.last()
		if got.RawQuery != tt.query {
			t.Errorf("mode %d: query = %q, want %q", tt.mode, got.RawQuery, tt.query)
		}
		if (got.Header.Get("x-us-env") == "true") != tt.header {
			t.Errorf("mode %d: header x-us-env = %q", tt.mode, got.Header.Get("x-us-env"))
		}
	}
}

func TestBaseURLJoinAndPathEscape(t *testing.T) {
	rec := newRecorder(t)
	rec.handle("GET /prefix/v2/consent/user/a b/c/audit", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.EscapedPath() != "/prefix/v2/consent/user/a%20b%2Fc/audit" {
			t.Errorf("escaped path = %q", r.URL.EscapedPath())
		}
		fmt.Fprint(w, `{}`)
	})
	rec.json("GET /v1/card/status", 200, cardJSON)
	for _, base := range []string{rec.srv.URL, rec.srv.URL + "/"} {
		c := New(Config{BaseURL: base, ClientKey: "ck"})
		if _, err := c.CardStatus(context.Background()); err != nil {
			t.Errorf("base %q: %v", base, err)
		}
	}
	c := New(Config{BaseURL: rec.srv.URL + "/prefix/", ClientKey: "ck"})
	var out json.RawMessage
	err := c.do(context.Background(), request{op: "T", method: "GET",
		path: pathf("/v2/consent/user/%s/audit", "a b/c"), family: familyClient, out: &out})
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"", "not a url", "127.0.0.1:8080"} {
		c := New(Config{BaseURL: bad, ClientKey: "ck"})
		_, err := c.CardStatus(context.Background())
		var e *Error
		if !errors.As(err, &e) || e.Status != 0 || !strings.Contains(e.Message, "invalid gateway address") {
			t.Errorf("base %q: err = %v", bad, err)
		}
	}
}
