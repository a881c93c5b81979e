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
	"sync/atomic"
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

// fakeSleep records the waits instead of sleeping.
type fakeSleep struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (f *fakeSleep) sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.waits = append(f.waits, d)
	f.mu.Unlock()
	return ctx.Err()
}

func TestGET429RetriesAfterRetryAfter(t *testing.T) {
	rec := newRecorder(t)
	var hits atomic.Int32
	rec.handle("GET /v1/card/status", func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) <= 2 {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"message":"Too many requests"}`)
			return
		}
		fmt.Fprint(w, cardJSON)
	})
	c := testClient(rec)
	fs := &fakeSleep{}
	c.sleep = fs.sleep
	card, err := c.CardStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if card.PanLast4 != "4242" || hits.Load() != 3 {
		t.Errorf("card %+v after %d hits", card, hits.Load())
	}
	if len(fs.waits) != 2 || fs.waits[0] != 2*time.Second || fs.waits[1] != 2*time.Second {
		t.Errorf("waits = %v", fs.waits)
	}
}

func TestGET429RetriesAtMostTwice(t *testing.T) {
	rec := newRecorder(t)
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(429) // no Retry-After: a short default wait
		fmt.Fprint(w, `{"message":"Too many requests"}`)
	})
	c := testClient(rec)
	fs := &fakeSleep{}
	c.sleep = fs.sleep
	_, err := c.User(context.Background())
	if !IsStatus(err, 429) {
		t.Fatalf("err = %v", err)
	}
	if n := rec.count("GET", "/v1/user"); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
	// No Retry-After: a backoff that doubles, half of it random.
	if len(fs.waits) != 2 || fs.waits[0] < retryBase/2 || fs.waits[0] > retryBase ||
		fs.waits[1] < retryBase || fs.waits[1] > 2*retryBase {
		t.Errorf("waits = %v", fs.waits)
	}
}

func TestGET429RetryAfterBeyondBoundIsReturned(t *testing.T) {
	rec := newRecorder(t)
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(429)
		fmt.Fprint(w, `{"message":"Too many requests"}`)
	})
	c := testClient(rec, func(cfg *Config) { cfg.MaxRetryWait = 5 * time.Second })
	fs := &fakeSleep{}
	c.sleep = fs.sleep
	_, err := c.User(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Status != 429 || e.RetryAfter != time.Minute {
		t.Fatalf("err = %#v", err)
	}
	if n := rec.count("GET", "/v1/user"); n != 1 || len(fs.waits) != 0 {
		t.Errorf("%d attempts, waits %v; want 1 and none", n, fs.waits)
	}
}

// With the real sleep: the wait actually happens and the answer arrives.
func TestGET429RealWait(t *testing.T) {
	rec := newRecorder(t)
	var hits atomic.Int32
	rec.handle("GET /v1/card/status", func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			return
		}
		fmt.Fprint(w, cardJSON)
	})
	c := testClient(rec, func(cfg *Config) { cfg.MaxRetryWait = 2 * time.Second })
	start := time.Now()
	if _, err := c.CardStatus(context.Background()); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 900*time.Millisecond {
		t.Errorf("answered after %v, Retry-After was 1s", el)
	}
}

func TestGET429WaitIsCancellable(t *testing.T) {
	rec := newRecorder(t)
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "4")
		w.WriteHeader(429)
	})
	c := testClient(rec, func(cfg *Config) { cfg.MaxRetryWait = 5 * time.Second })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.User(ctx)
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("cancel took %v", el)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Status != 0 || e.Op != "User" {
		t.Errorf("err = %#v", err)
	}
	if got := ErrorMessage(err); got != "request cancelled while waiting to retry" {
		t.Errorf("ErrorMessage = %q", got)
	}
	if n := rec.count("GET", "/v1/user"); n != 1 {
		t.Errorf("%d attempts", n)
	}
}

func TestPOST429NotRetried(t *testing.T) {
	rec := newRecorder(t)
	for _, p := range []string{"/v1/card/freeze", "/v1/card/unfreeze", "/v1/card/order"} {
		rec.handle("POST "+p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"message":"Too many requests"}`)
		})
	}
	c := testClient(rec)
	c.SetSession(Session{AccessToken: "a"})
	fs := &fakeSleep{}
	c.sleep = fs.sleep
	for name, call := range map[string]func(context.Context) error{
		"/v1/card/freeze":   c.FreezeCard,
		"/v1/card/unfreeze": c.UnfreezeCard,
		"/v1/card/order":    func(ctx context.Context) error { return c.OrderCard(ctx, CardPhysical) },
	} {
		err := call(context.Background())
		var e *Error
		if !errors.As(err, &e) || e.Status != 429 || e.RetryAfter != time.Second {
			t.Errorf("%s: err = %v", name, err)
		}
		if n := rec.count("POST", name); n != 1 {
			t.Errorf("%s sent %d times", name, n)
		}
	}
	if len(fs.waits) != 0 {
		t.Errorf("mutations waited: %v", fs.waits)
	}
}

// tokenGateway accepts only the bearer token in *valid for card status and
// mints "access-N" on refresh.
type tokenGateway struct {
	rec         *recorder
	mu          sync.Mutex
	valid       string
	refreshes   int
	refreshFail bool
}

func newTokenGateway(t *testing.T) *tokenGateway {
	g := &tokenGateway{rec: newRecorder(t), valid: "access-new"}
	g.rec.handle("GET /v1/card/status", func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		ok := r.Header.Get("Authorization") == "Bearer "+g.valid
		g.mu.Unlock()
		if !ok {
			w.WriteHeader(401)
			fmt.Fprint(w, `{"message":"Not authenticated"}`)
			return
		}
		fmt.Fprint(w, cardJSON)
	})
	g.rec.handle("POST /v1/auth/oauth/token", func(w http.ResponseWriter, r *http.Request) {
		var body map[string]string
		_ = json.NewDecoder(r.Body).Decode(&body)
		g.mu.Lock()
		defer g.mu.Unlock()
		g.refreshes++
		if g.refreshFail || r.Header.Get("x-secret-key") != "sk_test_secret" ||
			body["grant_type"] != "refresh_token" || body["refresh_token"] != "refresh-old" {
			w.WriteHeader(401)
			fmt.Fprint(w, `{"error":"invalid_grant","error_description":"Refresh token is invalid"}`)
			return
		}
		time.Sleep(20 * time.Millisecond) // let concurrent 401s pile up
		fmt.Fprintf(w, `{"access_token":%q,"refresh_token":"refresh-new","token_type":"Bearer","expires_in":21600}`, g.valid)
	})
	return g
}

func TestUnauthorizedRefreshesOnceAndRetries(t *testing.T) {
	g := newTokenGateway(t)
	c := testClient(g.rec)
	var changes []Session
	var mu sync.Mutex
	c.OnSessionChange(func(s Session) { mu.Lock(); changes = append(changes, s); mu.Unlock() })
	c.SetSession(Session{AccessToken: "access-old", RefreshToken: "refresh-old", Kind: SessionOAuth, Username: "alice"})
	card, err := c.CardStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if card.ID != "card-1" {
		t.Errorf("card = %+v", card)
	}
	s := c.Session()
	want := Session{AccessToken: "access-new", RefreshToken: "refresh-new", ExpiresAt: t0.Add(6 * time.Hour),
		Kind: SessionOAuth, Username: "alice"}
	if s != want {
		t.Errorf("session = %+v, want %+v", s, want)
	}
	if n := g.rec.count("GET", "/v1/card/status"); n != 2 {
		t.Errorf("card status sent %d times, want 2", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(changes) != 2 || changes[1] != want {
		t.Errorf("OnSessionChange calls = %+v", changes)
	}
	// The refresh call carries the secret key and the client key, no bearer.
	for _, r := range g.rec.requests() {
		if r.Path == "/v1/auth/oauth/token" {
			if r.Header.Get("Authorization") != "" || r.Header.Get("x-client-key") != "ck_test" ||
				r.Header.Get("Content-Type") != "application/json" {
				t.Errorf("refresh headers = %v", r.Header)
			}
		}
	}
}

func TestUnauthorizedAfterRefreshDoesNotLoop(t *testing.T) {
	g := newTokenGateway(t)
	g.valid = "access-new"
	c := testClient(g.rec)
	// The gateway mints access-new but card status wants something else.
	g.rec.handle("GET /v1/card/status", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(401)
		fmt.Fprint(w, `{"message":"Not authenticated"}`)
	})
	c.SetSession(Session{AccessToken: "access-old", RefreshToken: "refresh-old"})
	_, err := c.CardStatus(context.Background())
	if !IsUnauthorized(err) {
		t.Fatalf("err = %v", err)
	}
	if n := g.rec.count("GET", "/v1/card/status"); n != 2 {
		t.Errorf("card status sent %d times, want 2", n)
	}
	if g.refreshes != 1 {
		t.Errorf("%d refreshes, want 1", g.refreshes)
	}
}

func TestUnauthorizedRefreshRefusedClearsSession(t *testing.T) {
	g := newTokenGateway(t)
	g.refreshFail = true
	c := testClient(g.rec)
	var last *Session
	c.OnSessionChange(func(s Session) { last = &s })
	c.SetSession(Session{AccessToken: "access-old", RefreshToken: "refresh-old"})
	_, err := c.CardStatus(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Status != 401 || e.Op != "CardStatus" {
		t.Fatalf("err = %v; want the card's 401", err)
	}
	if !strings.Contains(e.Message, "the session could not be renewed: ") {
		t.Errorf("the 401 does not say why the session was not renewed: %q", e.Message)
	}
	if c.Session().Valid() {
		t.Error("session kept after the refresh was refused")
	}
	if last == nil || last.Valid() {
		t.Errorf("OnSessionChange not told: %v", last)
	}
	if n := g.rec.count("GET", "/v1/card/status"); n != 1 {
		t.Errorf("card status sent %d times, want 1", n)
	}
}

func TestUnauthorizedWithoutRefreshPossible(t *testing.T) {
	for _, tc := range []struct {
		name    string
		secret  string
		refresh string
	}{
		{"no secret key", "", "refresh-old"},
		{"no refresh token", "sk_test_secret", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newTokenGateway(t)
			c := testClient(g.rec, func(cfg *Config) { cfg.SecretKey = tc.secret })
			c.SetSession(Session{AccessToken: "access-old", RefreshToken: tc.refresh})
			_, err := c.CardStatus(context.Background())
			if !IsUnauthorized(err) {
				t.Fatalf("err = %v", err)
			}
			if g.refreshes != 0 {
				t.Errorf("refresh attempted")
			}
			if c.Session().Valid() {
				t.Error("an expired session is kept")
			}
		})
	}
}

func TestConcurrentUnauthorizedShareOneRefresh(t *testing.T) {
	g := newTokenGateway(t)
	c := testClient(g.rec)
	c.SetSession(Session{AccessToken: "access-old", RefreshToken: "refresh-old"})
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Go(func() {
			_, err := c.CardStatus(context.Background())
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if g.refreshes != 1 {
		t.Errorf("%d refreshes, want 1", g.refreshes)
	}
}

func TestLateUnauthorizedKeepsNewerSession(t *testing.T) {
	rec := newRecorder(t)
	c := testClient(rec, func(cfg *Config) { cfg.SecretKey = "" })
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) {
		// The user signs in again while the old request is in flight.
		c.SetSession(Session{AccessToken: "access-2"})
		w.WriteHeader(401)
	})
	c.SetSession(Session{AccessToken: "access-1"})
	if _, err := c.User(context.Background()); !IsUnauthorized(err) {
		t.Fatalf("err = %v", err)
	}
	if c.Session().AccessToken != "access-2" {
		t.Errorf("newer session lost: %+v", c.Session())
	}
}

func TestLogin(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/auth/login", 200, `{"accessToken":"at-1","refreshToken":"rt-1","expiresIn":21600}`)
	c := testClient(rec, func(cfg *Config) { cfg.US = true })
	var got []Session
	c.OnSessionChange(func(s Session) { got = append(got, s) })
	s, err := c.Login(context.Background(), "alice@demo.test", "demo-pass")
	if err != nil {
		t.Fatal(err)
	}
	want := Session{AccessToken: "at-1", RefreshToken: "rt-1", ExpiresAt: t0.Add(6 * time.Hour),
		Kind: SessionPassword, Username: "alice@demo.test"}
	if s != want || c.Session() != want || len(got) != 1 || got[0] != want {
		t.Errorf("session = %+v, stored %+v, notified %+v", s, c.Session(), got)
	}
	r := rec.last()
	var body map[string]string
	if err := json.Unmarshal([]byte(r.Body), &body); err != nil || body["username"] != "alice@demo.test" ||
		body["password"] != "demo-pass" || len(body) != 2 {
		t.Errorf("body = %q", r.Body)
	}
	if r.Header.Get("x-client-key") != "ck_test" || r.Header.Get("Authorization") != "" ||
		r.Header.Get("x-secret-key") != "" || r.Header.Get("x-us-env") != "true" {
		t.Errorf("headers = %v", r.Header)
	}
}

func TestLoginFailures(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/auth/login", 401, `{"message":"Invalid credentials"}`)
	c := testClient(rec)
	c.SetSession(Session{AccessToken: "keep", RefreshToken: "refresh-old"})
	_, err := c.Login(context.Background(), "a", "b")
	if ErrorMessage(err) != "Invalid credentials (401)" {
		t.Errorf("err = %v", err)
	}
	if c.Session().AccessToken != "keep" || rec.count("POST", "/v1/auth/oauth/token") != 0 {
		t.Error("a failed login touched the session or refreshed")
	}
	rec.json("POST /v1/auth/login", 200, `{"refreshToken":"x"}`)
	if _, err := c.Login(context.Background(), "a", "b"); err == nil {
		t.Error("login without access token accepted")
	}
	// expiresIn as a string is read; a missing one leaves ExpiresAt zero.
	rec.json("POST /v1/auth/login", 200, `{"accessToken":"a","expiresIn":"60"}`)
	if s, err := c.Login(context.Background(), "a", "b"); err != nil || s.ExpiresAt != t0.Add(time.Minute) {
		t.Errorf("session %+v, err %v", s, err)
	}
	rec.json("POST /v1/auth/login", 200, `{"accessToken":"a"}`)
	if s, err := c.Login(context.Background(), "a", "b"); err != nil || !s.ExpiresAt.IsZero() {
		t.Errorf("session %+v, err %v", s, err)
	}
}

func TestLogout(t *testing.T) {
	for _, status := range []int{200, 500} {
		rec := newRecorder(t)
		rec.json("POST /v1/auth/logout", status, `{"success":true}`)
		c := testClient(rec)
		c.SetSession(Session{AccessToken: "at-1", RefreshToken: "rt-1"})
		notified := false
		c.OnSessionChange(func(s Session) { notified = !s.Valid() })
		err := c.Logout(context.Background())
		if (err != nil) != (status != 200) {
			t.Errorf("status %d: err = %v", status, err)
		}
		if c.Session().Valid() || !notified {
			t.Errorf("status %d: session not cleared", status)
		}
		r := rec.last()
		if r.Header.Get("Authorization") != "Bearer at-1" || r.Header.Get("x-client-key") != "ck_test" ||
			r.Header.Get("Content-Type") != "" || r.Body != "" {
			t.Errorf("logout request = %+v", r)
		}
		if rec.count("POST", "/v1/auth/oauth/token") != 0 {
			t.Error("logout refreshed")
		}
	}
	// Signed out already: nothing is sent.
	rec := newRecorder(t)
	c := testClient(rec)
	if err := c.Logout(context.Background()); err != nil || len(rec.requests()) != 0 {
		t.Errorf("logout without session: %v, %d requests", err, len(rec.requests()))
	}
}

func TestRefreshExplicit(t *testing.T) {
	g := newTokenGateway(t)
	c := testClient(g.rec)
	if _, err := c.Refresh(context.Background()); err == nil || !strings.Contains(err.Error(), "no refresh token") {
		t.Errorf("refresh without session: %v", err)
	}
	c.SetSession(Session{AccessToken: "access-old", RefreshToken: "refresh-old", Username: "u"})
	s, err := c.Refresh(context.Background())
	if err != nil || s.AccessToken != "access-new" || s.RefreshToken != "refresh-new" || s.Username != "u" ||
		s.Kind != SessionPassword || c.Session() != s {
		t.Errorf("refresh: %+v, %v", s, err)
	}
	noSecret := testClient(g.rec, func(cfg *Config) { cfg.SecretKey = "" })
	noSecret.SetSession(Session{AccessToken: "a", RefreshToken: "r"})
	_, err = noSecret.Refresh(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Status != 0 || !strings.Contains(e.Message, "no secret key") {
		t.Errorf("refresh without secret: %v", err)
	}
	if !noSecret.Session().Valid() {
		t.Error("a refused Refresh cleared the session")
	}
}

func TestTimeout(t *testing.T) {
	rec := newRecorder(t)
	release := make(chan struct{})
	defer close(release)
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	c := testClient(rec, func(cfg *Config) { cfg.Timeout = 50 * time.Millisecond })
	start := time.Now()
	_, err := c.User(context.Background())
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("timeout took %v", el)
	}
	var e *Error
	if !errors.As(err, &e) || e.Status != 0 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %#v", err)
	}
	if got := ErrorMessage(err); got != "the gateway did not answer within 50ms" {
		t.Errorf("ErrorMessage = %q", got)
	}
	if errors.Is(err, context.Canceled) {
		t.Error("a timeout reads as a cancellation")
	}
}

func TestCancelledBeforeAnswer(t *testing.T) {
	rec := newRecorder(t)
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	c := testClient(rec)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	_, err := c.User(ctx)
	if !errors.Is(err, context.Canceled) || ErrorMessage(err) != "request cancelled" {
		t.Errorf("err = %v", err)
	}
}

func TestTransportError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c := New(Config{BaseURL: url, ClientKey: "ck"})
	_, err := c.CardStatus(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Status != 0 || e.Err == nil || !strings.HasPrefix(ErrorMessage(err), "cannot reach the gateway: ") {
		t.Errorf("err = %v", err)
	}
}

func TestSuccessBodies(t *testing.T) {
	rec := newRecorder(t)
	c := testClient(rec)
	c.SetSession(Session{AccessToken: "a"})
	for _, tt := range []struct {
		status int
		body   string
		ok     bool
	}{
		{200, `{"success":true}`, true},
		{201, `{"success":true}`, true},
		{200, ``, true},
		{204, ``, true},
		{200, `OK`, true},
		{200, `{}`, true},
		{200, `{"success":false}`, false},
		{400, `{"message":"Card is not frozen"}`, false},
	} {
		rec.json("POST /v1/card/unfreeze", tt.status, tt.body)
		err := c.UnfreezeCard(context.Background())
		if (err == nil) != tt.ok {
			t.Errorf("%d %q: err = %v", tt.status, tt.body, err)
		}
	}
	rec.json("POST /v1/card/order", 200, `{"success":true}`)
	if err := c.OrderCard(context.Background(), ""); err != nil || rec.last().Body != `{"type":"VIRTUAL"}` {
		t.Errorf("order: %v, body %q", err, rec.last().Body)
	}
	if err := c.OrderCard(context.Background(), CardMetal); err != nil || rec.last().Body != `{"type":"METAL"}` {
		t.Errorf("order: %v, body %q", err, rec.last().Body)
	}
	rec.json("POST /v1/card/freeze", 200, `{"success":true}`)
	if err := c.FreezeCard(context.Background()); err != nil || rec.last().Body != "" ||
		rec.last().Header.Get("Content-Type") != "" {
		t.Errorf("freeze: %v, %+v", err, rec.last())
	}
}

func TestUnreadableSuccessBody(t *testing.T) {
	rec := newRecorder(t)
	c := testClient(rec)
	for _, body := range []string{`<html>`, ``, `[1,2]`} {
		rec.json("GET /v1/card/status", 200, body)
		_, err := c.CardStatus(context.Background())
		var e *Error
		if !errors.As(err, &e) || e.Status != 200 {
			t.Errorf("%q: err = %v", body, err)
		}
	}
}

func TestCardStatusNotFound(t *testing.T) {
	rec := newRecorder(t)
	rec.json("GET /v1/card/status", 404, `{"message":"Card not found"}`)
	c := testClient(rec)
	c.SetSession(Session{AccessToken: "a"})
	_, err := c.CardStatus(context.Background())
	if !IsNotFound(err) || ErrorMessage(err) != "Card not found (404)" {
		t.Errorf("err = %v", err)
	}
	if rec.count("GET", "/v1/card/status") != 1 {
		t.Error("404 retried")
	}
}

func TestSessionAccessorsRace(t *testing.T) {
	c := New(Config{BaseURL: "http://127.0.0.1:1", ClientKey: "ck"})
	var n atomic.Int32
	c.OnSessionChange(func(Session) { n.Add(1) })
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 50 {
				c.SetSession(Session{AccessToken: fmt.Sprint(i, j)})
				_ = c.Session()
				c.ClearSession()
			}
		})
	}
	wg.Wait()
	if n.Load() < 200 {
		t.Errorf("only %d notifications", n.Load())
	}
	c.ClearSession()
	before := n.Load()
	c.ClearSession()
	if n.Load() != before {
		t.Error("clearing an empty session notified")
	}
}

func TestEmptyCredentialsAreNotSent(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/auth/login", 401, `{"message":"Not authenticated"}`)
	c := New(Config{BaseURL: rec.srv.URL, ClientKey: "ck_x"})
	_, err := c.Login(context.Background(), "a", "b")
	if !IsStatus(err, 401) {
		t.Fatalf("err = %v", err)
	}
	h := rec.last().Header
	for _, name := range []string{"X-Client-ID", "x-secret-key", "Authorization", "x-us-env"} {
		if _, ok := h[http.CanonicalHeaderKey(name)]; ok {
			t.Errorf("%s sent empty", name)
		}
	}
}

// A request whose credentials are not configured, or a chain network the
// interface does not document, is refused before anything is sent, with a
// message naming the setting (the gateway's 499 would not say which).
func TestMissingSettingsAreCaughtBeforeSending(t *testing.T) {
	rec := newRecorder(t)
	ctx := context.Background()
	noKeys := New(Config{BaseURL: rec.srv.URL})
	noKeys.SetSession(Session{AccessToken: "at"})
	withKey := New(Config{BaseURL: rec.srv.URL, ClientKey: "ck_x"})
	withKey.SetSession(Session{AccessToken: "at"})
	for _, c := range []struct {
		name, want string
		call       func() error
	}{
		{"login without a client key", "--client-key", func() error { _, err := noKeys.Login(ctx, "a", "b"); return err }},
		{"user without a client key", "CARDTERM_CLIENT_KEY", func() error { _, err := noKeys.User(ctx); return err }},
		{"products without a client id", "--client-id", func() error { _, err := noKeys.Products(ctx); return err }},
		{"revoke without a secret key", "CARDTERM_SECRET_KEY", func() error { _, err := withKey.RevokeConsent(ctx, "s", "c"); return err }},
		{"an undocumented chain network", "ethereum, linea, solana, etherlink", func() error { _, err := withKey.ChainConfig(ctx, "base"); return err }},
	} {
		err := c.call()
		if !IsSettingError(err) || !strings.Contains(ErrorMessage(err), c.want) {
			t.Errorf("%s: err = %v, want a setting error naming %q", c.name, err, c.want)
		}
		if strings.Contains(err.Error(), "missing or wrong") {
			t.Errorf("%s: the message repeats its tag: %v", c.name, err)
		}
	}
	if n := len(rec.requests()); n != 0 {
		t.Fatalf("%d requests reached the gateway", n)
	}
}
