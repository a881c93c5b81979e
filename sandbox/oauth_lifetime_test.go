package sandbox

import (
	"testing"
	"time"
)

// Tokens from the OAuth code exchange follow the same lifetimes as direct
// login: 6-hour access, 184-day refresh (rotated), and revoke kills both.
func TestOAuthTokensLifetimeAndRevoke(t *testing.T) {
	e := newEnv(t, Options{})
	const redirect = "http://127.0.0.1:40000/callback"
	tok := exchange(e, e.codeFromRedirect(redirect, "s"), verifier, redirect)
	want(t, tok, 200, "")
	at, rt := tok.str("access_token"), tok.str("refresh_token")

	e.clock.Advance(6 * time.Hour)
	want(t, e.do("GET", "/v1/user", bearer(at), nil), 401, "Not authenticated")
	r := refreshGrant(e, rt)
	want(t, r, 200, "")
	rt2 := r.str("refresh_token")
	e.clock.Advance(184*24*time.Hour - time.Second)
	want(t, refreshGrant(e, rt2), 200, "") // rotation: rt2 is now spent
	if r := refreshGrant(e, rt2); r.Status != 400 || r.str("error") != "invalid_grant" {
		t.Fatalf("spent refresh token: %d %s", r.Status, r.Raw)
	}

	tok = exchange(e, e.codeFromRedirect(redirect, "s2"), verifier, redirect)
	e.clock.Advance(184 * 24 * time.Hour)
	if r := refreshGrant(e, tok.str("refresh_token")); r.Status != 400 || r.str("error_description") != "Refresh token has expired" {
		t.Fatalf("184 days: %d %s", r.Status, r.Raw)
	}

	tok = exchange(e, e.codeFromRedirect(redirect, "s3"), verifier, redirect)
	want(t, e.do("DELETE", "/v1/auth/oauth/revoke", bearer(tok.str("access_token")), nil), 200, "")
	want(t, e.do("GET", "/v1/user", bearer(tok.str("access_token")), nil), 401, "Not authenticated")
	if r := refreshGrant(e, tok.str("refresh_token")); r.Status != 400 || r.str("error") != "invalid_grant" {
		t.Fatalf("refresh after revoke: %d %s", r.Status, r.Raw)
	}
}

// The S256 challenge is not accepted as its own verifier: the sandbox does
// not fall back to the plain method.
func TestPKCEPlainIsNotAccepted(t *testing.T) {
	e := newEnv(t, Options{})
	const redirect = "http://127.0.0.1:40000/callback"
	code := e.codeFromRedirect(redirect, "p")
	if r := exchange(e, code, pkceS256(verifier), redirect); r.Status != 400 || r.str("error") != "invalid_grant" {
		t.Fatalf("challenge as verifier: %d %s", r.Status, r.Raw)
	}
}
