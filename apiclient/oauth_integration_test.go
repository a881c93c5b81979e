package apiclient_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// hostedSignIn plays the user on the sandbox's hosted sign-in page: it posts
// the demo credentials for the page at link and returns the redirect it
// answers (loopback) or the code it shows (phone).
func hostedSignIn(t *testing.T, link, username string, phone bool) (redirect *url.URL, shown string) {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil {
		t.Fatal(err)
	}
	form := url.Values{"session": {u.Query().Get("session")}, "username": {username}, "password": {"demo-pass"}}
	if phone {
		form.Set("device", "phone")
	}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.PostForm(u.Scheme+"://"+u.Host+"/oauth/sign-in", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusFound {
		loc, err := url.Parse(resp.Header.Get("Location"))
		if err != nil {
			t.Fatal(err)
		}
		return loc, ""
	}
	m := regexp.MustCompile(`id="code">([A-Z0-9]{5}-[A-Z0-9]{5})<`).FindSubmatch(body)
	if m == nil {
		t.Fatalf("sign-in page %d without a code:\n%s", resp.StatusCode, body)
	}
	return nil, string(m[1])
}

// oauthFlow starts an authorization request on the sandbox and returns what
// the client must remember and the hosted page link.
func oauthFlow(t *testing.T, c *apiclient.Client, redirect string) (apiclient.PKCE, string, string) {
	t.Helper()
	pk, err := apiclient.NewPKCE()
	if err != nil {
		t.Fatal(err)
	}
	state, _ := apiclient.NewState()
	link, err := c.AuthorizeInitiate(context.Background(), apiclient.AuthorizeRequest{RedirectURI: redirect, State: state, Challenge: pk.Challenge})
	if err != nil {
		t.Fatal(err)
	}
	return pk, state, link
}

const loopbackRedirect = "http://127.0.0.1:45678/callback"

// oauthSignIn signs username in on the hosted page (no phone step) and
// exchanges the code: c then holds an OAuth session, which it returns.
func oauthSignIn(t *testing.T, c *apiclient.Client, username string) apiclient.Session {
	t.Helper()
	pk, _, link := oauthFlow(t, c, loopbackRedirect)
	loc, _ := hostedSignIn(t, link, username, false)
	s, err := c.ExchangeCode(context.Background(), loc.Query().Get("code"), pk.Verifier, loopbackRedirect)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSandboxOAuthLoopbackFlow(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	c := g.client()
	pk, state, link := oauthFlow(t, c, loopbackRedirect)
	if !strings.HasPrefix(link, g.url+"/oauth/sign-in?") {
		t.Fatalf("link %s", link)
	}
	loc, _ := hostedSignIn(t, link, "alice@demo.test", false)
	if !strings.HasPrefix(loc.String(), loopbackRedirect+"?") {
		t.Fatalf("redirect %s", loc)
	}
	// state mismatch is a client-side rule: the state must come back as sent
	if !apiclient.StateMatches(state, loc.Query().Get("state")) || apiclient.StateMatches(state, loc.Query().Get("state")+"x") {
		t.Fatalf("state %q, sent %q", loc.Query().Get("state"), state)
	}
	s, err := c.ExchangeCode(context.Background(), loc.Query().Get("code"), pk.Verifier, loopbackRedirect)
	if err != nil {
		t.Fatal(err)
	}
	if s.Kind != apiclient.SessionOAuth || s.Username != "alice@demo.test" || s.RefreshToken == "" || !s.ExpiresAt.Equal(g.clock.Now().Add(6*time.Hour)) {
		t.Fatalf("session %+v", s)
	}
	if card := cardStatus(t, c); card.PanLast4 != "4242" {
		t.Fatalf("card %+v", card)
	}
	// the code is single use
	_, err = g.client().ExchangeCode(context.Background(), loc.Query().Get("code"), pk.Verifier, loopbackRedirect)
	wantErrorContains(t, err, 400, "already been used")
}

func TestSandboxOAuthPhoneCodeTypedLoosely(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	c := g.client()
	pk, _, link := oauthFlow(t, c, loopbackRedirect)
	_, code := hostedSignIn(t, link, "frank@demo.test", true)
	typed := " " + strings.ToLower(code) + " "
	s, err := c.ExchangeCode(context.Background(), typed, pk.Verifier, loopbackRedirect)
	if err != nil || s.Username != "frank@demo.test" {
		t.Fatalf("session %+v err %v", s, err)
	}
}

func TestSandboxOAuthS256AndCodeRules(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	c := g.client()
	pk, _, link := oauthFlow(t, c, loopbackRedirect)
	loc, _ := hostedSignIn(t, link, "alice@demo.test", false)
	code := loc.Query().Get("code")

	other, _ := apiclient.NewPKCE()
	_, err := c.ExchangeCode(context.Background(), code, other.Verifier, loopbackRedirect)
	wantErrorContains(t, err, 400, "code_verifier does not match")
	var e *apiclient.Error
	if !errors.As(err, &e) || e.Code != "invalid_grant" || len(e.Fields) == 0 || e.Fields[0].Field != "code_verifier" {
		t.Fatalf("verifier mismatch error %#v", err)
	}
	// the challenge itself is not a verifier (S256, not plain)
	_, err = c.ExchangeCode(context.Background(), code, pk.Challenge, loopbackRedirect)
	wantErrorContains(t, err, 400, "code_verifier does not match")
	_, err = c.ExchangeCode(context.Background(), code, pk.Verifier, "http://127.0.0.1:1/other")
	wantErrorContains(t, err, 400, "redirect_uri does not match")
	if c.Session().Valid() {
		t.Fatal("a refused exchange signed in")
	}
	if _, err := c.ExchangeCode(context.Background(), code, pk.Verifier, loopbackRedirect); err != nil {
		t.Fatalf("refusals must not spend the code: %v", err)
	}

	// expiry after 10 minutes on the injected clock
	pk, _, link = oauthFlow(t, c, loopbackRedirect)
	loc, _ = hostedSignIn(t, link, "alice@demo.test", false)
	g.clock.Advance(10 * time.Minute)
	_, err = g.client().ExchangeCode(context.Background(), loc.Query().Get("code"), pk.Verifier, loopbackRedirect)
	wantErrorContains(t, err, 400, "expired")

	// no secret key: the client refuses before asking
	_, err = g.client(func(c *apiclient.Config) { c.SecretKey = "" }).ExchangeCode(context.Background(), "X", pk.Verifier, loopbackRedirect)
	if err == nil || !strings.Contains(err.Error(), "secret key") {
		t.Fatalf("no secret: %v", err)
	}
	// a wrong secret key: the gateway refuses the client
	_, err = g.client(func(c *apiclient.Config) { c.SecretKey = "sk_wrong" }).ExchangeCode(context.Background(), "X", pk.Verifier, loopbackRedirect)
	if !apiclient.IsUnauthorized(err) {
		t.Fatalf("wrong secret: %v", err)
	}
}

func TestSandboxOAuthRefreshLifetime(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	c := g.client()
	first := oauthSignIn(t, c, "alice@demo.test")
	// the access token dies after 6 hours; the client refreshes on the 401
	g.clock.Advance(6*time.Hour + time.Minute)
	if card := cardStatus(t, c); card.PanLast4 != "4242" {
		t.Fatalf("card %+v", card)
	}
	s := c.Session()
	if s.Kind != apiclient.SessionOAuth || s.Username != "alice@demo.test" || s.RefreshToken == first.RefreshToken {
		t.Fatalf("refreshed session %+v", s)
	}
	// a refresh token lives 184 days, then the session cannot be renewed
	g.clock.Advance(184*24*time.Hour - time.Minute)
	if _, err := c.Refresh(context.Background()); err != nil {
		t.Fatalf("refresh within 184 days: %v", err)
	}
	g.clock.Advance(184*24*time.Hour + time.Second)
	_, err := c.Refresh(context.Background())
	wantErrorContains(t, err, 400, "Refresh token has expired")
	// and a call after that ends the session
	_, err = c.User(context.Background())
	if !apiclient.IsUnauthorized(err) || c.Session().Valid() {
		t.Fatalf("after refresh expiry: %v, %+v", err, c.Session())
	}
}

func TestSandboxOAuthRevokeKillsTokens(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	c := g.client()
	s := oauthSignIn(t, c, "alice@demo.test")
	if err := c.SignOut(context.Background()); err != nil {
		t.Fatal(err)
	}
	if c.Session().Valid() {
		t.Fatal("still signed in")
	}
	// both tokens are dead at the gateway
	thief := g.client()
	thief.SetSession(s)
	_, err := thief.User(context.Background())
	wantErrorContains(t, err, 401, "Not authenticated")
	thief.SetSession(s)
	_, err = thief.Refresh(context.Background())
	wantErrorContains(t, err, 400, "invalid or revoked")

	// a password session logs out instead
	login(t, c, "alice@demo.test")
	if err := c.SignOut(context.Background()); err != nil || c.Session().Valid() {
		t.Fatalf("password sign-out: %v", err)
	}
}

// wantErrorContains is wantError for a message part.
func wantErrorContains(t *testing.T, err error, status int, part string) {
	t.Helper()
	var e *apiclient.Error
	if !errors.As(err, &e) || e.Status != status || !strings.Contains(e.Message, part) {
		t.Fatalf("err = %v, want %d with %q", err, status, part)
	}
}
