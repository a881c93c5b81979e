package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

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
