package sandbox

import (
	"testing"
	"time"
)

func TestLogin(t *testing.T) {
	e := newEnv(t, Options{})
	r := e.do("POST", "/v1/auth/login", ck(), map[string]string{"username": "alice@demo.test", "password": "demo-pass"})
	want(t, r, 200, "")
	if r.str("accessToken") == "" || r.str("refreshToken") == "" || r.JSON["expiresIn"] != float64(21600) {
		t.Fatalf("login body %s", r.Raw)
	}
	a2, _ := e.login("ALICE@demo.test")
	if a2 == r.str("accessToken") {
		t.Fatal("tokens are not random")
	}
	want(t, e.do("POST", "/v1/auth/login", ck(), map[string]string{"username": "alice@demo.test", "password": "nope"}), 401, "Not authenticated")
	want(t, e.do("POST", "/v1/auth/login", ck(), map[string]string{"username": "ghost@demo.test", "password": "demo-pass"}), 401, "Not authenticated")
	want(t, e.do("POST", "/v1/auth/login", ck(), map[string]string{}), 400, "")
}

func TestLogoutKillsToken(t *testing.T) {
	e := newEnv(t, Options{})
	tok, refresh := e.login("alice@demo.test")
	other, _ := e.login("alice@demo.test")
	want(t, e.do("GET", "/v1/user", bearer(tok), nil), 200, "")
	r := e.do("POST", "/v1/auth/logout", bearer(tok), nil)
	want(t, r, 200, "")
	if r.JSON["success"] != true {
		t.Fatalf("logout body %s", r.Raw)
	}
	want(t, e.do("GET", "/v1/user", bearer(tok), nil), 401, "Not authenticated")
	want(t, e.do("POST", "/v1/auth/logout", bearer(tok), nil), 401, "Not authenticated")
	// its refresh token died with it; another session lives on
	r = e.do("POST", "/v1/auth/oauth/token", ck("x-secret-key", DemoSecretKey), map[string]string{"grant_type": "refresh_token", "refresh_token": refresh})
	if r.Status != 400 || r.str("error") != "invalid_grant" {
		t.Fatalf("refresh after logout: %d %s", r.Status, r.Raw)
	}
	want(t, e.do("GET", "/v1/user", bearer(other), nil), 200, "")
}

func TestAccessTokenExpiresAfter6h(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	e.clock.Advance(6*time.Hour - time.Second)
	want(t, e.do("GET", "/v1/card/status", bearer(tok), nil), 200, "")
	e.clock.Advance(time.Second)
	want(t, e.do("GET", "/v1/card/status", bearer(tok), nil), 401, "Not authenticated")
}

func refreshGrant(e *env, rt string, h ...string) resp {
	return e.do("POST", "/v1/auth/oauth/token", ck(append([]string{"x-secret-key", DemoSecretKey}, h...)...),
		map[string]string{"grant_type": "refresh_token", "refresh_token": rt})
}

func TestRefreshRotation(t *testing.T) {
	e := newEnv(t, Options{})
	_, rt := e.login("frank@demo.test")
	e.clock.Advance(7 * time.Hour) // the access token is dead, the refresh token is not
	r := refreshGrant(e, rt)
	want(t, r, 200, "")
	if r.str("token_type") != "Bearer" || r.JSON["expires_in"] != float64(21600) || r.str("access_token") == "" || r.str("refresh_token") == rt {
		t.Fatalf("refresh body %s", r.Raw)
	}
	u := e.do("GET", "/v1/user", bearer(r.str("access_token")), nil)
	if u.str("email") != "frank@demo.test" {
		t.Fatalf("refreshed token user %s", u.Raw)
	}
	old := refreshGrant(e, rt)
	if old.Status != 400 || old.str("error") != "invalid_grant" || old.str("error_description") == "" {
		t.Fatalf("old refresh token reused: %d %s", old.Status, old.Raw)
	}
	if _, ok := old.JSON["details"].(map[string]any); !ok {
		t.Fatalf("details object missing: %s", old.Raw)
	}
	want(t, refreshGrant(e, r.str("refresh_token")), 200, "")
}

func TestRefreshExpiresAfter184Days(t *testing.T) {
	e := newEnv(t, Options{})
	_, rt := e.login("alice@demo.test")
	_, rt2 := e.login("alice@demo.test")
	e.clock.Advance(184*24*time.Hour - time.Minute)
	want(t, refreshGrant(e, rt2), 200, "")
	e.clock.Advance(time.Minute)
	r := refreshGrant(e, rt)
	if r.Status != 400 || r.str("error") != "invalid_grant" || r.str("error_description") != "Refresh token has expired" {
		t.Fatalf("expired refresh: %d %s", r.Status, r.Raw)
	}
}

func TestTokenEndpointClientRules(t *testing.T) {
	e := newEnv(t, Options{})
	_, rt := e.login("alice@demo.test")
	body := map[string]string{"grant_type": "refresh_token", "refresh_token": rt}
	for _, h := range [][]string{nil, {"x-secret-key", "wrong"}, {"x-secret-key", "sk_live_acme"}} {
		r := e.do("POST", "/v1/auth/oauth/token", ck(h...), body)
		if r.Status != 401 || r.str("error") != "invalid_client" {
			t.Fatalf("secret %v: %d %s", h, r.Status, r.Raw)
		}
	}
	r := e.do("POST", "/v1/auth/oauth/token", hdr("x-secret-key", DemoSecretKey), body)
	if r.Status != 499 {
		t.Fatalf("no client key: %d %s", r.Status, r.Raw)
	}
	r = e.do("POST", "/v1/auth/oauth/token", ck("x-secret-key", DemoSecretKey), map[string]string{"grant_type": "password"})
	if r.Status != 400 || r.str("error") != "unsupported_grant_type" {
		t.Fatalf("unsupported grant: %d %s", r.Status, r.Raw)
	}
	// a refresh token is bound to its backend
	r = e.do("POST", "/v1/auth/oauth/token", hdr("x-client-key", "ck_live_acme", "x-secret-key", "sk_live_acme"), body)
	if r.Status != 400 || r.str("error") != "invalid_grant" {
		t.Fatalf("cross-backend refresh: %d %s", r.Status, r.Raw)
	}
	want(t, refreshGrant(e, rt), 200, "")
}

func TestRevoke(t *testing.T) {
	e := newEnv(t, Options{})
	tok, rt := e.login("alice@demo.test")
	other, otherRT := e.login("alice@demo.test")
	want(t, e.do("DELETE", "/v1/auth/oauth/revoke", ck(), nil), 401, "Not authenticated")
	r := e.do("DELETE", "/v1/auth/oauth/revoke", bearer(tok), nil)
	want(t, r, 200, "")
	if r.JSON["success"] != true {
		t.Fatalf("revoke body %s", r.Raw)
	}
	want(t, e.do("GET", "/v1/user", bearer(tok), nil), 401, "Not authenticated")
	if r := refreshGrant(e, rt); r.Status != 400 {
		t.Fatalf("refresh after revoke: %d", r.Status)
	}
	// body {token} revokes a named refresh token (and its access token) too
	third, _ := e.login("alice@demo.test")
	want(t, e.do("DELETE", "/v1/auth/oauth/revoke", bearer(third), map[string]string{"token": otherRT}), 200, "")
	want(t, e.do("GET", "/v1/user", bearer(other), nil), 401, "Not authenticated")
	want(t, e.do("GET", "/v1/user", bearer(third), nil), 401, "Not authenticated")
}

func TestTenantAndEnvironmentSeparation(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	// alice does not exist for globex or acme production
	for _, key := range []string{"ck_sandbox_globex", "ck_live_acme"} {
		want(t, e.do("POST", "/v1/auth/login", hdr("x-client-key", key), map[string]string{"username": "alice@demo.test", "password": "demo-pass"}), 401, "Not authenticated")
		want(t, e.do("GET", "/v1/user", hdr("x-client-key", key, "Authorization", "Bearer "+alice), nil), 401, "Not authenticated")
	}
	r := e.do("POST", "/v1/auth/login", hdr("x-client-key", "ck_sandbox_globex"), map[string]string{"username": "gus@globex.test", "password": "demo-pass"})
	want(t, r, 200, "")
	gus := r.str("accessToken")
	want(t, e.do("GET", "/v1/card/status", hdr("x-client-key", "ck_sandbox_globex", "Authorization", "Bearer "+gus), nil), 404, "Card not found")
	want(t, e.do("GET", "/v1/user", bearer(gus), nil), 401, "Not authenticated")

	r = e.do("POST", "/v1/auth/login", hdr("x-client-key", "ck_live_acme"), map[string]string{"username": "olga@acme.test", "password": "demo-pass"})
	want(t, r, 200, "")
	c := e.do("GET", "/v1/card/status", hdr("x-client-key", "ck_live_acme", "Authorization", "Bearer "+r.str("accessToken")), nil)
	if c.Status != 200 || c.str("status") != "ACTIVE" {
		t.Fatalf("olga card %d %s", c.Status, c.Raw)
	}
}

func TestUSBackendSeparation(t *testing.T) {
	e := newEnv(t, Options{})
	want(t, e.do("POST", "/v1/auth/login", ck(), map[string]string{"username": "sam@demo.test", "password": "demo-pass"}), 401, "Not authenticated")
	want(t, e.do("POST", "/v1/auth/login", ck("x-us-env", "true"), map[string]string{"username": "alice@demo.test", "password": "demo-pass"}), 401, "Not authenticated")
	sam, _ := e.login("sam@demo.test", "x-us-env", "true")
	want(t, e.do("GET", "/v1/user", bearer(sam), nil), 401, "Not authenticated")
	want(t, e.do("GET", "/v1/user", bearer(sam, "x-us-env", "false"), nil), 401, "Not authenticated")
	u := e.do("GET", "/v1/user", bearer(sam, "x-us-env", "true"), nil)
	want(t, u, 200, "")
	want(t, e.do("GET", "/v1/user?x-us-env=true", bearer(sam), nil), 200, "")
	if u.str("countryOfResidence") != "US" || u.str("usState") != "CA" || u.str("ssn") != "***-**-6789" {
		t.Fatalf("sam profile %s", u.Raw)
	}
	alice, _ := e.login("alice@demo.test")
	want(t, e.do("GET", "/v1/user", bearer(alice, "x-us-env", "true"), nil), 401, "Not authenticated")
}
