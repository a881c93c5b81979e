package apiclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestS256ChallengeRFC7636Vector(t *testing.T) {
	// RFC 7636 appendix B.
	got := S256Challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
	if got != "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" {
		t.Fatalf("S256 challenge %q", got)
	}
}

func TestNewPKCEAndState(t *testing.T) {
	unreserved := regexp.MustCompile(`^[A-Za-z0-9\-._~]{43,128}$`)
	seen := map[string]bool{}
	for range 50 {
		p, err := NewPKCE()
		if err != nil {
			t.Fatal(err)
		}
		if !unreserved.MatchString(p.Verifier) || p.Challenge != S256Challenge(p.Verifier) || p.Challenge == p.Verifier {
			t.Fatalf("bad PKCE %+v", p)
		}
		st, err := NewState()
		if err != nil {
			t.Fatal(err)
		}
		if len(st) < 32 || seen[p.Verifier] || seen[st] {
			t.Fatalf("not random: %q %q", p.Verifier, st)
		}
		seen[p.Verifier], seen[st] = true, true
	}
	if !StateMatches("abc", "abc") || StateMatches("abc", "abd") || StateMatches("abc", "") || StateMatches("", "") {
		t.Fatal("StateMatches")
	}
}

func TestAuthorizeInitiateSendsPKCEParams(t *testing.T) {
	rec := newRecorder(t)
	rec.json("GET /v1/auth/oauth/authorize/initiate", 200, `{"url":"https://gw.example/oauth/sign-in?session=S1"}`)
	c := testClient(rec, func(c *Config) { c.ClientID = "partner-app" })
	link, err := c.AuthorizeInitiate(context.Background(), AuthorizeRequest{
		RedirectURI: "http://127.0.0.1:5555/callback", State: "st-1", Challenge: "CH"})
	if err != nil || link != "https://gw.example/oauth/sign-in?session=S1" {
		t.Fatalf("link %q err %v", link, err)
	}
	r := rec.last()
	q, _ := url.ParseQuery(r.RawQuery)
	want := map[string]string{"client_id": "partner-app", "redirect_uri": "http://127.0.0.1:5555/callback", "state": "st-1",
		"code_challenge": "CH", "code_challenge_method": "S256", "response_type": "code"}
	for k, v := range want {
		if q.Get(k) != v {
			t.Errorf("query %s = %q, want %q (%s)", k, q.Get(k), v, r.RawQuery)
		}
	}
	if r.Header.Get("x-client-key") != "ck_test" || r.Header.Get("x-secret-key") != "" || r.Header.Get("Authorization") != "" {
		t.Fatalf("headers %v", r.Header)
	}
	// client_id defaults to the client key
	c = testClient(rec, func(cfg *Config) { cfg.ClientID = "" })
	if _, err := c.AuthorizeInitiate(context.Background(), AuthorizeRequest{Challenge: "CH"}); err != nil {
		t.Fatal(err)
	}
	if q, _ := url.ParseQuery(rec.last().RawQuery); q.Get("client_id") != "ck_test" {
		t.Fatalf("client_id %q", q.Get("client_id"))
	}
}

func TestAuthorizeInitiateAnswers(t *testing.T) {
	for body, want := range map[string]string{
		`{"authorizationUrl":"https://gw.example/a"}`:  "https://gw.example/a",
		`"https://gw.example/b"`:                       "https://gw.example/b",
		`{"url":"javascript:alert(1)"}`:                "",
		`{"url":"/relative"}`:                          "",
		`{"other":1}`:                                  "",
		`{"url":"https://gw.example/\u202eexe.nigis"}`: "",
		`{"url":"https://gw.example/\u200bsignin"}`:    "",
		`{"url":"https://gw.example/sign in"}`:         "",
	} {
		rec := newRecorder(t)
		rec.json("GET /v1/auth/oauth/authorize/initiate", 200, body)
		link, err := testClient(rec).AuthorizeInitiate(context.Background(), AuthorizeRequest{Challenge: "C"})
		if link != want || (want == "") != (err != nil) {
			t.Errorf("%s: link %q err %v", body, link, err)
		}
	}
	rec := newRecorder(t)
	rec.json("GET /v1/auth/oauth/authorize/initiate", 400,
		`{"error":"invalid_request","error_description":"code_challenge_method must be S256","details":{"code_challenge_method":"bad"}}`)
	_, err := testClient(rec).AuthorizeInitiate(context.Background(), AuthorizeRequest{Challenge: "C"})
	if !IsStatus(err, 400) || !strings.Contains(ErrorMessage(err), "S256") {
		t.Fatalf("error %v", err)
	}
}

func TestExchangeCode(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/auth/oauth/token", 200, `{"access_token":"at-1","refresh_token":"rt-1","token_type":"Bearer","expires_in":21600}`)
	rec.json("GET /v1/user", 200, `{"id":"u1","email":"alice@demo.test","firstName":"Alice"}`)
	c := testClient(rec)
	var changes []Session
	c.OnSessionChange(func(s Session) { changes = append(changes, s) })
	s, err := c.ExchangeCode(context.Background(), "  abcde-fghij ", "verifier-1", "http://127.0.0.1:1/callback")
	if err != nil {
		t.Fatal(err)
	}
	want := Session{AccessToken: "at-1", RefreshToken: "rt-1", ExpiresAt: t0.Add(6 * time.Hour), Kind: SessionOAuth, Username: "alice@demo.test"}
	if s != want || c.Session() != want || changes[len(changes)-1] != want {
		t.Fatalf("session %+v", s)
	}
	var tok seen
	for _, r := range rec.requests() {
		if r.Path == "/v1/auth/oauth/token" {
			tok = r
		}
	}
	var body map[string]string
	_ = json.Unmarshal([]byte(tok.Body), &body)
	if body["grant_type"] != "authorization_code" || body["code"] != "abcde-fghij" || body["code_verifier"] != "verifier-1" ||
		body["redirect_uri"] != "http://127.0.0.1:1/callback" {
		t.Fatalf("body %s", tok.Body)
	}
	if tok.Header.Get("x-client-key") != "ck_test" || tok.Header.Get("x-secret-key") != "sk_test_secret" ||
		tok.Header.Get("Content-Type") != "application/json" || tok.Header.Get("Authorization") != "" {
		t.Fatalf("headers %v", tok.Header)
	}
}

func TestExchangeCodeFailures(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/auth/oauth/token", 400,
		`{"error":"invalid_grant","error_description":"code_verifier does not match code_challenge (S256)","details":{"code_verifier":"mismatch"}}`)
	c := testClient(rec)
	_, err := c.ExchangeCode(context.Background(), "CODE", "v", "r")
	var e *Error
	if !asError(err, &e) || e.Status != 400 || e.Code != "invalid_grant" || len(e.Fields) != 1 || e.Fields[0].Field != "code_verifier" {
		t.Fatalf("error %#v", err)
	}
	if c.Session().Valid() {
		t.Fatal("a failed exchange must not sign in")
	}
	// No request without the secret key, an empty code or verifier.
	n := len(rec.requests())
	for _, tc := range []struct {
		c             *Client
		code, ver, is string
	}{
		{testClient(rec, func(c *Config) { c.SecretKey = "" }), "C", "v", "secret key"},
		{c, "  ", "v", "code"},
		{c, "C", "", "verifier"},
	} {
		if _, err := tc.c.ExchangeCode(context.Background(), tc.code, tc.ver, "r"); err == nil || !strings.Contains(err.Error(), tc.is) {
			t.Errorf("%q %q: %v", tc.code, tc.ver, err)
		}
	}
	if len(rec.requests()) != n {
		t.Fatal("requests were sent")
	}
	// a non-bearer token type is refused
	rec.json("POST /v1/auth/oauth/token", 200, `{"access_token":"at","token_type":"mac","expires_in":60}`)
	if _, err := c.ExchangeCode(context.Background(), "C", "v", "r"); err == nil || c.Session().Valid() {
		t.Fatalf("mac token: %v", err)
	}
}

func TestRevokeAndSignOutByKind(t *testing.T) {
	rec := newRecorder(t)
	rec.json("DELETE /v1/auth/oauth/revoke", 200, `{"success":true}`)
	rec.json("POST /v1/auth/logout", 200, `{"success":true}`)
	c := testClient(rec)

	c.SetSession(Session{AccessToken: "at-o", RefreshToken: "rt-o", Kind: SessionOAuth})
	if err := c.SignOut(context.Background()); err != nil {
		t.Fatal(err)
	}
	r := rec.last()
	if r.Method != "DELETE" || r.Path != "/v1/auth/oauth/revoke" || r.Header.Get("Authorization") != "Bearer at-o" || r.Header.Get("x-client-key") != "ck_test" {
		t.Fatalf("revoke request %+v", r)
	}
	if c.Session().Valid() || rec.count("POST", "/v1/auth/logout") != 0 {
		t.Fatal("OAuth sign-out must revoke, not log out, and clear the session")
	}

	c.SetSession(Session{AccessToken: "at-p", RefreshToken: "rt-p", Kind: SessionPassword})
	if err := c.SignOut(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := rec.last(); r.Path != "/v1/auth/logout" || c.Session().Valid() || rec.count("DELETE", "/v1/auth/oauth/revoke") != 1 {
		t.Fatalf("password sign-out %+v", r)
	}
	// signed out already: nothing sent
	n := len(rec.requests())
	if err := c.SignOut(context.Background()); err != nil || len(rec.requests()) != n {
		t.Fatal("sign-out without a session sent a request")
	}
}

func TestRevokeRefreshesALapsedToken(t *testing.T) {
	rec := newRecorder(t)
	rec.handle("DELETE /v1/auth/oauth/revoke", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer at-new" {
			w.WriteHeader(401)
			_, _ = w.Write([]byte(`{"message":"Not authenticated"}`))
			return
		}
		_, _ = w.Write([]byte(`{"success":true}`))
	})
	rec.json("POST /v1/auth/oauth/token", 200, `{"access_token":"at-new","refresh_token":"rt-new","token_type":"Bearer","expires_in":21600}`)
	c := testClient(rec)
	c.SetSession(Session{AccessToken: "at-old", RefreshToken: "rt-old", Kind: SessionOAuth})
	if err := c.Revoke(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rec.count("DELETE", "/v1/auth/oauth/revoke") != 2 || rec.count("POST", "/v1/auth/oauth/token") != 1 || c.Session().Valid() {
		t.Fatalf("requests %+v", rec.requests())
	}
	// the gateway refusing: the local session still ends
	rec.json("DELETE /v1/auth/oauth/revoke", 500, `{"message":"Internal server error"}`)
	c.SetSession(Session{AccessToken: "at-x", Kind: SessionOAuth})
	if err := c.Revoke(context.Background()); !IsStatus(err, 500) || c.Session().Valid() {
		t.Fatalf("err %v, session %+v", err, c.Session())
	}
}
