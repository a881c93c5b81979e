package sandbox

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestClientKeyRules(t *testing.T) {
	e := newEnv(t, Options{})
	body := map[string]string{"username": "alice@demo.test", "password": "demo-pass"}
	want(t, e.do("POST", "/v1/auth/login", nil, body), 499, "Missing client key")
	want(t, e.do("POST", "/v1/auth/login", hdr("x-client-key", "ck_nope"), body), 498, "Invalid client key")
	want(t, e.do("GET", "/v1/card/status", nil, nil), 499, "Missing client key")
	want(t, e.do("GET", "/v1/user", hdr("x-client-key", "nope"), nil), 498, "Invalid client key")
}

func TestBearerRules(t *testing.T) {
	e := newEnv(t, Options{})
	for _, p := range []string{"/v1/user", "/v1/card/status"} {
		want(t, e.do("GET", p, ck(), nil), 401, "Not authenticated")
		want(t, e.do("GET", p, ck("Authorization", "Bearer nope"), nil), 401, "Not authenticated")
		want(t, e.do("GET", p, ck("Authorization", "Basic abc"), nil), 401, "Not authenticated")
	}
	for _, u := range []string{"umar@demo.test", "pia@demo.test", "rex@demo.test"} {
		tok, _ := e.login(u)
		want(t, e.do("GET", "/v1/card/status", bearer(tok), nil), 403, "Not authorized")
		want(t, e.do("POST", "/v1/card/freeze", bearer(tok), nil), 403, "Not authorized")
		want(t, e.do("POST", "/v1/card/order", bearer(tok), map[string]string{"type": "VIRTUAL"}), 403, "Not authorized")
		r := e.do("GET", "/v1/user", bearer(tok), nil)
		want(t, r, 200, "")
		if r.str("verificationState") == "VERIFIED" {
			t.Fatalf("%s should not be verified", u)
		}
	}
}

// TestIdentifierPerRoute checks the middleware for identifier headers and
// families later endpoint families use (X-Client-ID, bearer only, consent shape).
func TestIdentifierPerRoute(t *testing.T) {
	s := New(Options{Clock: NewManualClock(t0)})
	ok := func(c *call) { c.json(200, map[string]string{"user": c.user.Username, "backend": c.be.key.String()}) }
	s.handle("GET /test/order", routeSpec{fam: familyMessage, ident: identClientID, auth: true}, ok)
	s.handle("GET /test/webhook", routeSpec{fam: familyMessage, ident: identBearerOnly, auth: true}, ok)
	s.handle("GET /test/consent", routeSpec{fam: familyConsent, ident: identClientKey, secret: true}, func(c *call) { c.json(200, map[string]string{}) })
	ts := httptest.NewServer(s)
	defer ts.Close()
	e := &env{t: t, ts: ts, s: s}
	tok, _ := e.login("alice@demo.test")

	want(t, e.do("GET", "/test/order", hdr("Authorization", "Bearer "+tok), nil), 499, "Missing client id")
	want(t, e.do("GET", "/test/order", hdr("X-Client-ID", "bogus", "Authorization", "Bearer "+tok), nil), 498, "Invalid client id")
	for _, id := range []string{"acme-sandbox", DemoClientKey} {
		r := e.do("GET", "/test/order", hdr("X-Client-ID", id, "Authorization", "Bearer "+tok), nil)
		want(t, r, 200, "")
		if r.str("user") != "alice@demo.test" {
			t.Fatalf("order route user %s", r.Raw)
		}
	}
	want(t, e.do("GET", "/test/order", hdr("X-Client-ID", "globex-sandbox", "Authorization", "Bearer "+tok), nil), 401, "Not authenticated")

	r := e.do("GET", "/test/webhook", hdr("Authorization", "Bearer "+tok), nil)
	want(t, r, 200, "")
	if r.str("backend") != "acme/sandbox/eu" {
		t.Fatalf("webhook backend %s", r.Raw)
	}
	want(t, e.do("GET", "/test/webhook", nil, nil), 401, "Not authenticated")

	for _, c := range []struct {
		h      http.Header
		status int
		err    string
	}{
		{nil, 499, "Missing client key"},
		{hdr("x-client-key", "x"), 498, "Invalid client key"},
		{ck(), 401, "Invalid client secret"},
		{ck("x-secret-key", "wrong"), 401, "Invalid client secret"},
	} {
		r := e.do("GET", "/test/consent", c.h, nil)
		if r.Status != c.status || r.str("error") != c.err {
			t.Fatalf("consent: %d %s, want %d %q", r.Status, r.Raw, c.status, c.err)
		}
		if d, ok := r.JSON["details"].([]any); !ok || len(d) != 1 {
			t.Fatalf("consent details missing: %s", r.Raw)
		}
		if _, has := r.JSON["message"]; has {
			t.Fatalf("consent shape has message: %s", r.Raw)
		}
	}
	want(t, e.do("GET", "/test/consent", ck("x-secret-key", DemoSecretKey), nil), 200, "")
}

func TestUnknownPathShapes(t *testing.T) {
	e := newEnv(t, Options{})
	want(t, e.do("GET", "/v1/nothing", ck(), nil), 404, "Not found")
	r := e.do("GET", "/v2/consent/nothing", ck(), nil)
	if r.Status != 404 || r.str("error") != "Not found" {
		t.Fatalf("consent 404: %d %s", r.Status, r.Raw)
	}
	if _, ok := r.JSON["details"].([]any); !ok {
		t.Fatalf("consent 404 lacks details: %s", r.Raw)
	}
}

func TestBadJSONBody(t *testing.T) {
	e := newEnv(t, Options{})
	want(t, e.do("POST", "/v1/auth/login", ck(), "{nope"), 400, "Invalid JSON body")
	want(t, e.do("POST", "/v1/auth/login", ck(), map[string]any{"username": 5}), 400, "")
}

// The request log keeps method and path of every request, never a query.
func TestRequestLogKeepsMethodAndPathOnly(t *testing.T) {
	s := New(Options{})
	hs := httptest.NewServer(s)
	defer hs.Close()
	resp, err := http.Get(hs.URL + "/v2/consent/user/u-1?full=true")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	got := s.Requests()
	if len(got) != 1 || got[0].Method != "GET" || got[0].Path != "/v2/consent/user/u-1" || got[0].Query != "" {
		t.Fatalf("log %+v", got)
	}
}

// With RecordBodies the log keeps the query and the body too, and the
// handler still reads the whole body: a login recorded signs in.
func TestRequestLogRecordsQueryAndBodyWhenAsked(t *testing.T) {
	e := newEnv(t, Options{RecordBodies: true})
	body := `{"username":"alice@demo.test","password":"demo-pass"}`
	want(t, e.do("POST", "/v1/auth/login?trace=1", ck(), body), 200, "")
	got := e.s.Requests()
	last := got[len(got)-1]
	if last.Path != "/v1/auth/login" || last.Query != "trace=1" || string(last.Body) != body {
		t.Fatalf("log %+v", last)
	}
}
