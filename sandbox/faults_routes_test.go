package sandbox

import (
	"context"
	"net/http"
	"testing"
	"time"
)

func TestParseRouteFault(t *testing.T) {
	for spec, want := range map[string]RouteFault{
		"GET /v1/card/status=503,latency=2s": {Method: "GET", Path: "/v1/card/status", Status: 503, Latency: 2 * time.Second},
		"post /v1/card/freeze=latency=300ms": {Method: "POST", Path: "/v1/card/freeze", Latency: 300 * time.Millisecond},
		"* /v1/order/*=429":                  {Method: "*", Path: "/v1/order/*", Status: 429},
	} {
		got, err := ParseRouteFault(spec)
		if err != nil || got != want {
			t.Errorf("%q: %+v, %v; want %+v", spec, got, err, want)
		}
	}
	for _, bad := range []string{"/v1/card/status=503", "GET /v1/card/status", "GET v1=503", "GET /v1=200", "GET /v1=latency=0s",
		"GET /v1=abc", "GET /v1=", "GET /[=503"} {
		if _, err := ParseRouteFault(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestRouteFaultFailsOneEndpointOnly(t *testing.T) {
	e := newEnv(t, Options{Faults: Faults{Routes: []RouteFault{{Method: "GET", Path: "/v1/card/status", Status: 503}}}})
	alice, _ := e.login("alice@demo.test")
	r := e.do("GET", "/v1/card/status", bearer(alice), nil)
	want(t, r, 503, "Service Unavailable")
	if r.Header.Get("X-Sandbox-Fault") != "--fault GET /v1/card/status=503" {
		t.Fatalf("X-Sandbox-Fault %q", r.Header.Get("X-Sandbox-Fault"))
	}
	want(t, e.do("POST", "/v1/card/freeze", bearer(alice), nil), 200, "")
	want(t, e.do("GET", "/v1/user", bearer(alice), nil), 200, "")
}

func TestRouteFaultLatencyDelaysOnlyItsEndpoint(t *testing.T) {
	e := newEnv(t, Options{Faults: Faults{Routes: []RouteFault{{Method: "*", Path: "/v1/card/*", Latency: 150 * time.Millisecond}}}})
	alice, _ := e.login("alice@demo.test")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", e.ts.URL+"/v1/card/status", nil)
	req.Header = bearer(alice)
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("the card status answered within 50 ms despite 150 ms of latency")
	}
	want(t, e.do("GET", "/v1/card/status", bearer(alice), nil), 200, "")
}

func TestPreferCodeIsHonoured(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	r := e.do("GET", "/v1/user", bearer(alice, "Prefer", "code=429"), nil)
	want(t, r, 429, "Too many requests")
	if r.Header.Get("Retry-After") != "1" {
		t.Fatalf("429 without Retry-After: %v", r.Header)
	}
	r = e.do("GET", "/v2/consent/user/x", ck("Prefer", "return=minimal, code=500"), nil)
	if r.Status != 500 || r.JSON["error"] == nil {
		t.Fatalf("consent family: %d %s", r.Status, r.Raw)
	}
	want(t, e.do("GET", "/v1/user", bearer(alice, "Prefer", "code=200"), nil), 400,
		"the Prefer header asks for code=200: give an error status from 400 to 599")
	want(t, e.do("GET", "/v1/user", bearer(alice), nil), 200, "")
}
