package sandbox_test

import (
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"cardterm/sandbox"
)

// scriptOAuthLogoutAndLimits goes on with the OAuth flow, logout, the
// faults in each family's shape, the tokens' lifetimes and the rate
// limits, on the same sandbox as TestContractSandbox.
func scriptOAuthLogoutAndLimits(t *testing.T, h *harness, doc *openapi3.T, covered map[string]bool, login func(string, ...string) string, setPIN func(name, tok string, body any, want int) res, pagePath func(r res, field string) string, alice string) {
	var r res
	// ---------------------------------------------------------------- OAuth
	verifier := "contract-test-verifier-0123456789-abcdefghijklmnopqrstuvwxyz"
	sum := sha256.Sum256([]byte(verifier))
	challenge := base64.RawURLEncoding.EncodeToString(sum[:])
	redirectURI := "http://127.0.0.1:9/callback"
	q := url.Values{"client_id": {sandbox.DemoClientKey}, "code_challenge": {challenge}, "code_challenge_method": {"S256"},
		"redirect_uri": {redirectURI}, "state": {"st4te"}, "response_type": {"code"}}
	r = h.do("oauth initiate 200", req{method: "GET", path: "/v1/auth/oauth/authorize/initiate?" + q.Encode(), want: 200})
	signIn, err := url.Parse(r.str("url"))
	if err != nil || signIn.Query().Get("session") == "" {
		t.Fatalf("initiate url %q", r.str("url"))
	}
	bad := url.Values{"client_id": {"nobody"}, "code_challenge": {challenge}, "code_challenge_method": {"S256"}}
	h.do("oauth initiate 498 unknown client", req{method: "GET", path: "/v1/auth/oauth/authorize/initiate?" + bad.Encode(), want: 498})
	h.do("oauth initiate 400 no challenge", req{method: "GET", path: "/v1/auth/oauth/authorize/initiate?client_id=" + sandbox.DemoClientKey, want: 400, badRequest: true})
	h.do("sign-in page 200", req{method: "GET", path: signIn.RequestURI(), want: 200})
	h.do("sign-in page 400 unknown session", req{method: "GET", path: "/oauth/sign-in?session=nope", want: 400})
	session := signIn.Query().Get("session")
	h.do("sign-in 200 wrong password", req{method: "POST", path: "/oauth/sign-in",
		body: url.Values{"session": {session}, "username": {"alice@demo.test"}, "password": {"nope"}}, want: 200})
	r = h.do("sign-in 302", req{method: "POST", path: "/oauth/sign-in",
		body: url.Values{"session": {session}, "username": {"alice@demo.test"}, "password": {"demo-pass"}}, want: 302})
	loc, _ := url.Parse(r.header.Get("Location"))
	code := ""
	if loc != nil {
		code = loc.Query().Get("code")
		checkf(t, loc.Query().Get("state") == "st4te", "redirect state %q", loc.Query().Get("state"))
	}
	if code == "" {
		t.Fatalf("sign-in redirect %q carries no code", r.header.Get("Location"))
	}
	h.do("sign-in 400 session used", req{method: "POST", path: "/oauth/sign-in",
		body: url.Values{"session": {session}, "username": {"alice@demo.test"}, "password": {"demo-pass"}}, want: 400})
	tokenCall := func(name string, hd http.Header, body any, want int, bad bool) res {
		return h.do(name, req{method: "POST", path: "/v1/auth/oauth/token", hdr: hd, body: body, want: want, badRequest: bad})
	}
	r = tokenCall("oauth token 200 code", withSecret(), map[string]string{"grant_type": "authorization_code", "code": code,
		"code_verifier": verifier, "redirect_uri": redirectURI}, 200, false)
	oauthAccess, oauthRefresh := r.str("access_token"), r.str("refresh_token")
	tokenCall("oauth token 400 code reused", withSecret(), map[string]string{"grant_type": "authorization_code", "code": code,
		"code_verifier": verifier, "redirect_uri": redirectURI}, 400, false)
	r = tokenCall("oauth token 200 refresh", withSecret(), map[string]string{"grant_type": "refresh_token", "refresh_token": oauthRefresh}, 200, false)
	if r.str("access_token") != "" {
		oauthAccess = r.str("access_token")
	}
	tokenCall("oauth token 400 refresh spent", withSecret(), map[string]string{"grant_type": "refresh_token", "refresh_token": oauthRefresh}, 400, false)
	tokenCall("oauth token 400 no grant", withSecret(), map[string]string{"refresh_token": "x"}, 400, true)
	tokenCall("oauth token 401 bad secret", withKey("x-secret-key", "sk_wrong"), map[string]string{"grant_type": "refresh_token", "refresh_token": "x"}, 401, false)
	tokenCall("oauth token 499", hdrs("x-secret-key", sandbox.DemoSecretKey), map[string]string{"grant_type": "refresh_token", "refresh_token": "x"}, 499, true)
	tokenCall("oauth token 498", hdrs("x-client-key", "x", "x-secret-key", sandbox.DemoSecretKey), map[string]string{"grant_type": "refresh_token", "refresh_token": "x"}, 498, false)
	h.do("user 200 oauth token", req{method: "GET", path: "/v1/user", hdr: withBearer(oauthAccess), want: 200})
	h.do("revoke 200", req{method: "DELETE", path: "/v1/auth/oauth/revoke", hdr: withBearer(oauthAccess), want: 200})
	h.do("user 401 after revoke", req{method: "GET", path: "/v1/user", hdr: withBearer(oauthAccess), want: 401})
	h.do("revoke 401", req{method: "DELETE", path: "/v1/auth/oauth/revoke", hdr: withBearer(oauthAccess), want: 401})

	// ---------------------------------------------------------------- logout
	bye := login("alice@demo.test")
	r = h.do("logout 200", req{method: "POST", path: "/v1/auth/logout", hdr: withBearer(bye), want: 200})
	checkf(t, r.obj()["success"] == true, "logout: %s", r.raw)
	h.do("user 401 after logout", req{method: "GET", path: "/v1/user", hdr: withBearer(bye), want: 401})
	h.do("logout 401", req{method: "POST", path: "/v1/auth/logout", hdr: withBearer(bye), want: 401})
	h.do("logout 499", req{method: "POST", path: "/v1/auth/logout", hdr: hdrs("Authorization", "Bearer "+alice), want: 499, badRequest: true})

	// ---------------------------------------------------------------- faults: 429 and 500 in each family's shape
	burst := func(name string, c req) res {
		h.srv.SetFaults(sandbox.Faults{Burst429: 1})
		c.want = http.StatusTooManyRequests
		r := h.do(name, c)
		checkf(t, r.header.Get("Retry-After") != "", "%s: 429 without Retry-After", name)
		return r
	}
	burst("429 card", req{method: "GET", path: "/v1/card/status", hdr: withBearer(alice)})
	burst("429 oauth", req{method: "POST", path: "/v1/auth/oauth/token", hdr: withSecret(), body: map[string]string{"grant_type": "refresh_token", "refresh_token": "x"}})
	burst("429 consent", req{method: "GET", path: "/v2/consent/user/" + "u-1", hdr: withKey()})
	burst("429 hosted page", req{method: "GET", path: "/pin-direct/set?token=nope"})
	h.srv.SetFaults(sandbox.Faults{ErrorRate: 1})
	h.do("500 card", req{method: "GET", path: "/v1/card/status", hdr: withBearer(alice), want: 500})
	h.do("500 whitelist", req{method: "GET", path: "/v1/wallet/whitelist?currency=usdc", hdr: withBearer(alice), want: 500})
	h.do("500 oauth", req{method: "POST", path: "/v1/auth/oauth/token", hdr: withSecret(), body: map[string]string{"grant_type": "refresh_token", "refresh_token": "x"}, want: 500})
	h.do("500 consent", req{method: "GET", path: "/v2/consent/user/u-1/audit", hdr: withKey(), want: 500})
	h.srv.SetFaults(sandbox.Faults{})

	// ---------------------------------------------------------------- hosted tokens live about 10 minutes
	late := h.do("pin token for expiry", req{method: "POST", path: "/v1/card/pin/token", hdr: withBearer(alice), want: 200})
	latePage := setPIN("set-pin token for expiry", alice, nil, 200)
	h.clock.Advance(10*time.Minute + time.Second)
	h.do("pin image 410 expired", req{method: "GET", path: pagePath(late, "imageUrl"), want: 410})
	h.do("pin page 410 expired", req{method: "GET", path: pagePath(latePage, "hostedPageUrl"), want: 410})

	// ---------------------------------------------------------------- the 6-hour access token
	h.clock.Advance(6*time.Hour + time.Second)
	h.do("user 401 expired token", req{method: "GET", path: "/v1/user", hdr: withBearer(alice), want: 401})

	// ---------------------------------------------------------------- /v1/user rate limit (its own sandbox)
	rl := newHarness(t, doc, sandbox.Options{UserRateLimitPerMinute: 2}, covered)
	rlr := rl.do("rate login", req{method: "POST", path: "/v1/auth/login", hdr: withKey(),
		body: map[string]string{"username": "alice@demo.test", "password": "demo-pass"}, want: 200})
	tok := rlr.str("accessToken")
	rl.do("rate user 1", req{method: "GET", path: "/v1/user", hdr: withBearer(tok), want: 200})
	rl.do("rate user 2", req{method: "GET", path: "/v1/user", hdr: withBearer(tok), want: 200})
	rlr = rl.do("rate user 429", req{method: "GET", path: "/v1/user", hdr: withBearer(tok), want: 429})
	if n, err := strconv.Atoi(rlr.header.Get("Retry-After")); err != nil || n < 1 || n > 60 {
		t.Errorf("user 429 Retry-After %q, want whole seconds 1..60", rlr.header.Get("Retry-After"))
	}
	rl.clock.Advance(time.Minute)
	rl.do("rate user after the window", req{method: "GET", path: "/v1/user", hdr: withBearer(tok), want: 200})

	// per client and hour: two users' tokens share the client's budget
	hr := newHarness(t, doc, sandbox.Options{UserRateLimitPerHour: 2}, covered)
	toks := []string{}
	for _, u := range []string{"alice@demo.test", "frank@demo.test"} {
		lr := hr.do("hourly login "+u, req{method: "POST", path: "/v1/auth/login", hdr: withKey(),
			body: map[string]string{"username": u, "password": "demo-pass"}, want: 200})
		toks = append(toks, lr.str("accessToken"))
	}
	hr.do("hourly user 1", req{method: "GET", path: "/v1/user", hdr: withBearer(toks[0]), want: 200})
	hr.do("hourly user 2", req{method: "GET", path: "/v1/user", hdr: withBearer(toks[1]), want: 200})
	hr.do("hourly user 429", req{method: "GET", path: "/v1/user", hdr: withBearer(toks[0]), want: 429})

}
