package sandbox

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"

// initiate starts an OAuth flow and returns the hosted page URL.
func (e *env) initiate(redirect, state string, extra ...string) string {
	e.t.Helper()
	q := url.Values{"client_id": {DemoClientKey}, "redirect_uri": {redirect}, "state": {state},
		"code_challenge": {pkceS256(verifier)}, "code_challenge_method": {"S256"}, "response_type": {"code"}}
	r := e.do("GET", "/v1/auth/oauth/authorize/initiate?"+q.Encode(), ck(extra...), nil)
	want(e.t, r, 200, "")
	if !strings.HasPrefix(r.str("url"), e.ts.URL+"/oauth/sign-in?session=") {
		e.t.Fatalf("initiate url %s", r.Raw)
	}
	return r.str("url")
}

// signIn posts the hosted form for the page URL.
func (e *env) signIn(pageURL, username, password string, phone bool) resp {
	e.t.Helper()
	u, _ := url.Parse(pageURL)
	form := url.Values{"session": {u.Query().Get("session")}, "username": {username}, "password": {password}}
	if phone {
		form.Set("device", "phone")
	}
	return e.do("POST", "/oauth/sign-in", hdr("Content-Type", "application/x-www-form-urlencoded"), form.Encode())
}

// codeFromRedirect signs in through the loopback redirect and returns the code.
func (e *env) codeFromRedirect(redirect, state string) string {
	e.t.Helper()
	r := e.signIn(e.initiate(redirect, state), "alice@demo.test", "demo-pass", false)
	if r.Status != 302 {
		e.t.Fatalf("sign-in status %d %s", r.Status, r.Raw)
	}
	loc, _ := url.Parse(r.Header.Get("Location"))
	if got := loc.Query().Get("state"); got != state {
		e.t.Fatalf("state %q, want %q (%s)", got, state, loc)
	}
	return loc.Query().Get("code")
}

func exchange(e *env, code, ver, redirect string) resp {
	return e.do("POST", "/v1/auth/oauth/token", ck("x-secret-key", DemoSecretKey), map[string]string{
		"grant_type": "authorization_code", "code": code, "code_verifier": ver, "redirect_uri": redirect})
}

func TestInitiateValidation(t *testing.T) {
	e := newEnv(t, Options{})
	base := url.Values{"client_id": {DemoClientKey}, "code_challenge": {"abc"}, "code_challenge_method": {"S256"}, "redirect_uri": {"http://127.0.0.1:5000/callback"}}
	for _, c := range []struct{ drop, set, val, field string }{
		{drop: "client_id", field: "client_id"},
		{drop: "code_challenge", field: "code_challenge"},
		{set: "code_challenge_method", val: "plain", field: "code_challenge_method"},
		{drop: "code_challenge_method", field: "code_challenge_method"},
		{set: "response_type", val: "token", field: "response_type"},
	} {
		q := url.Values{}
		for k, v := range base {
			q[k] = v
		}
		q.Del(c.drop)
		if c.set != "" {
			q.Set(c.set, c.val)
		}
		r := e.do("GET", "/v1/auth/oauth/authorize/initiate?"+q.Encode(), ck(), nil)
		d, _ := r.JSON["details"].(map[string]any)
		if r.Status != 400 || r.str("error") != "invalid_request" || d[c.field] == nil {
			t.Fatalf("%+v: %d %s", c, r.Status, r.Raw)
		}
	}
	q := url.Values{}
	for k, v := range base {
		q[k] = v
	}
	q.Set("client_id", "nobody")
	if r := e.do("GET", "/v1/auth/oauth/authorize/initiate?"+q.Encode(), nil, nil); r.Status != 498 {
		t.Fatalf("unknown client id: %d %s", r.Status, r.Raw)
	}
	q.Set("client_id", "acme-sandbox") // the tenant's client id works too, without x-client-key
	if r := e.do("GET", "/v1/auth/oauth/authorize/initiate?"+q.Encode(), nil, nil); r.Status != 200 {
		t.Fatalf("client id: %d %s", r.Status, r.Raw)
	}
}

func TestOAuthLoopbackFlow(t *testing.T) {
	e := newEnv(t, Options{})
	for _, redirect := range []string{"http://127.0.0.1:53412/callback", "http://[::1]:9/cb", "http://localhost:8080/callback?x=1"} {
		page := e.initiate(redirect, "st<&>ate")
		g := e.do("GET", strings.TrimPrefix(page, e.ts.URL), nil, nil)
		body := string(g.Raw)
		if g.Status != 200 || !strings.Contains(body, `value="alice@demo.test"`) || !strings.Contains(body, "frank@demo.test") || !strings.Contains(body, "demo-pass") {
			t.Fatalf("sign-in page %d:\n%s", g.Status, body)
		}
		r := e.signIn(page, "alice@demo.test", "demo-pass", false)
		if r.Status != 302 {
			t.Fatalf("%s: %d %s", redirect, r.Status, r.Raw)
		}
		loc, _ := url.Parse(r.Header.Get("Location"))
		if !strings.HasPrefix(loc.String(), strings.SplitN(redirect, "?", 2)[0]+"?") || loc.Query().Get("state") != "st<&>ate" || loc.Query().Get("code") == "" {
			t.Fatalf("redirect %s", loc)
		}
		tok := exchange(e, loc.Query().Get("code"), verifier, redirect)
		want(t, tok, 200, "")
		if tok.str("token_type") != "Bearer" || tok.JSON["expires_in"] != float64(21600) || tok.str("refresh_token") == "" {
			t.Fatalf("token body %s", tok.Raw)
		}
		u := e.do("GET", "/v1/user", bearer(tok.str("access_token")), nil)
		if u.str("email") != "alice@demo.test" {
			t.Fatalf("user %s", u.Raw)
		}
		want(t, refreshGrant(e, tok.str("refresh_token")), 200, "")
	}
	// the session is single use
	page := e.initiate("http://127.0.0.1:1/cb", "s")
	e.signIn(page, "alice@demo.test", "demo-pass", false)
	if r := e.signIn(page, "alice@demo.test", "demo-pass", false); r.Status != 400 || !strings.Contains(string(r.Raw), "expired") {
		t.Fatalf("session reuse %d", r.Status)
	}
}

func TestPKCEFailures(t *testing.T) {
	e := newEnv(t, Options{})
	const redirect = "http://127.0.0.1:40000/callback"
	check := func(r resp, field string) {
		t.Helper()
		d, _ := r.JSON["details"].(map[string]any)
		if r.Status != 400 || r.str("error") != "invalid_grant" || r.str("error_description") == "" || d[field] == nil {
			t.Fatalf("want invalid_grant on %s: %d %s", field, r.Status, r.Raw)
		}
	}
	code := e.codeFromRedirect(redirect, "a")
	check(exchange(e, code, verifier+"x", redirect), "code_verifier")
	check(exchange(e, code, verifier, "http://127.0.0.1:40001/callback"), "redirect_uri")
	want(t, exchange(e, code, verifier, redirect), 200, "") // failures above did not spend it
	check(exchange(e, code, verifier, redirect), "code")    // reuse

	code = e.codeFromRedirect(redirect, "b")
	e.clock.Advance(10 * time.Minute)
	r := exchange(e, code, verifier, redirect)
	check(r, "code")
	if !strings.Contains(r.str("error_description"), "expired") {
		t.Fatalf("expiry description %s", r.Raw)
	}

	code = e.codeFromRedirect(redirect, "c")
	r = e.do("POST", "/v1/auth/oauth/token", hdr("x-client-key", "ck_sandbox_globex", "x-secret-key", "sk_sandbox_globex"), map[string]string{
		"grant_type": "authorization_code", "code": code, "code_verifier": verifier, "redirect_uri": redirect})
	check(r, "code")
	r = e.do("POST", "/v1/auth/oauth/token", ck("x-secret-key", DemoSecretKey), map[string]string{"grant_type": "authorization_code", "code": code})
	if r.Status != 400 || r.str("error") != "invalid_request" {
		t.Fatalf("missing verifier %d %s", r.Status, r.Raw)
	}
}

var codeRe = regexp.MustCompile(`id="code">([A-Z2-7]{5}-[A-Z2-7]{5})<`)

func TestOAuthPhonePath(t *testing.T) {
	e := newEnv(t, Options{})
	const redirect = "http://127.0.0.1:40000/callback"
	page := e.initiate(redirect, "s1")
	g := e.do("GET", strings.TrimPrefix(page, e.ts.URL)+"&device=phone", nil, nil)
	if !strings.Contains(string(g.Raw), `value="phone" checked`) {
		t.Fatalf("device=phone not preselected:\n%s", g.Raw)
	}
	r := e.signIn(page, "alice@demo.test", "demo-pass", true)
	m := codeRe.FindStringSubmatch(string(r.Raw))
	if r.Status != 200 || m == nil {
		t.Fatalf("phone page %d:\n%s", r.Status, r.Raw)
	}
	typed := strings.ToLower(strings.ReplaceAll(m[1], "-", " ")) // typed sloppily
	want(t, exchange(e, typed, verifier, redirect), 200, "")

	// a non-loopback redirect always shows the code
	page = e.initiate("https://app.example/callback", "s2")
	r = e.signIn(page, "frank@demo.test", "demo-pass", false)
	if m = codeRe.FindStringSubmatch(string(r.Raw)); r.Status != 200 || m == nil {
		t.Fatalf("non-loopback page %d:\n%s", r.Status, r.Raw)
	}
	tok := exchange(e, m[1], verifier, "https://app.example/callback")
	if u := e.do("GET", "/v1/user", bearer(tok.str("access_token")), nil); u.str("email") != "frank@demo.test" {
		t.Fatalf("user %s", u.Raw)
	}
}

func TestSignInPageErrorsAndEscaping(t *testing.T) {
	e := newEnv(t, Options{})
	page := e.initiate("http://127.0.0.1:1/cb", "s")
	r := e.signIn(page, `<script>alert(1)</script>`, "bad", false)
	body := string(r.Raw)
	if r.Status != 200 || !strings.Contains(body, "Invalid username or password") || strings.Contains(body, "<script>alert") || !strings.Contains(body, "&lt;script&gt;") {
		t.Fatalf("bad credentials page %d:\n%s", r.Status, body)
	}
	// still usable after a failure
	if r := e.signIn(page, "alice@demo.test", "demo-pass", false); r.Status != 302 {
		t.Fatalf("after failure %d", r.Status)
	}
	if r := e.do("GET", "/oauth/sign-in?session=nope", nil, nil); r.Status != 400 {
		t.Fatalf("unknown session %d", r.Status)
	}
	page = e.initiate("http://127.0.0.1:1/cb", "s")
	e.clock.Advance(10 * time.Minute)
	if r := e.do("GET", strings.TrimPrefix(page, e.ts.URL), nil, nil); r.Status != 400 || !strings.Contains(string(r.Raw), "expired") {
		t.Fatalf("expired session %d", r.Status)
	}
}

func TestOAuthUSSession(t *testing.T) {
	e := newEnv(t, Options{})
	const redirect = "http://127.0.0.1:40000/callback"
	page := e.initiate(redirect, "us", "x-us-env", "true")
	if r := e.signIn(page, "alice@demo.test", "demo-pass", false); r.Status != 200 {
		t.Fatalf("alice on US backend: %d", r.Status)
	}
	r := e.signIn(page, "sam@demo.test", "demo-pass", false)
	loc, _ := url.Parse(r.Header.Get("Location"))
	code := loc.Query().Get("code")
	want(t, exchange(e, code, verifier, redirect), 400, "") // not on the EU backend
	tok := e.do("POST", "/v1/auth/oauth/token", ck("x-secret-key", DemoSecretKey, "x-us-env", "true"), map[string]string{
		"grant_type": "authorization_code", "code": code, "code_verifier": verifier, "redirect_uri": redirect})
	want(t, tok, 200, "")
	want(t, e.do("GET", "/v1/user", bearer(tok.str("access_token"), "x-us-env", "true"), nil), 200, "")
}
