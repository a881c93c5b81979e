package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestFaultLatency(t *testing.T) {
	e := newEnv(t, Options{Faults: Faults{Latency: 150 * time.Millisecond}})
	start := time.Now()
	want(t, e.do("POST", "/v1/auth/login", ck(), map[string]string{"username": "alice@demo.test", "password": "demo-pass"}), 200, "")
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Fatalf("answered after %v", d)
	}

	e.s.SetFaults(Faults{Latency: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", e.ts.URL+"/v1/user", nil)
	start = time.Now()
	_, err := http.DefaultClient.Do(req)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("cancel took %v", d)
	}
	e.s.SetFaults(Faults{})
	start = time.Now()
	want(t, e.do("GET", "/v1/user", ck(), nil), 401, "")
	if d := time.Since(start); d > time.Second {
		t.Fatalf("latency not cleared: %v", d)
	}
}

func TestFaultBurst429(t *testing.T) {
	e := newEnv(t, Options{Faults: Faults{Burst429: 2}})
	for i := 0; i < 2; i++ {
		r := e.do("GET", "/v1/card/status", ck(), nil)
		want(t, r, 429, "Too many requests")
		if r.Header.Get("Retry-After") != "1" {
			t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
		}
	}
	want(t, e.do("GET", "/v1/card/status", ck(), nil), 401, "Not authenticated")
	e.s.SetFaults(Faults{Burst429: 1})
	r := e.do("GET", "/v2/consent/user/x", ck(), nil)
	if r.Status != 429 || r.str("error") != "Too many requests" {
		t.Fatalf("consent 429 %d %s", r.Status, r.Raw)
	}
}

func TestFaultErrorRate(t *testing.T) {
	e := newEnv(t, Options{Faults: Faults{ErrorRate: 1}})
	for i := 0; i < 5; i++ {
		want(t, e.do("POST", "/v1/auth/login", ck(), map[string]string{"username": "alice@demo.test", "password": "demo-pass"}), 500, "Internal server error")
	}
	e.s.SetFaults(Faults{ErrorRate: 0})
	e.login("alice@demo.test")
	e.s.SetFaults(Faults{ErrorRate: 0.5})
	n := 0
	for i := 0; i < 200; i++ {
		if e.do("GET", "/v1/card/status", ck(), nil).Status == 500 {
			n++
		}
	}
	if n < 50 || n > 150 {
		t.Fatalf("%d of 200 failed at rate 0.5", n)
	}
}

func TestFaultMalformed(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	e.s.SetFaults(Faults{Malformed: true})
	r := e.do("GET", "/v1/card/status", bearer(tok), nil)
	var v any
	if r.Status != 200 || json.Unmarshal(r.Raw, &v) == nil || len(r.Raw) == 0 {
		t.Fatalf("malformed card: %d %q", r.Status, r.Raw)
	}
	r = e.do("POST", "/v1/card/freeze", bearer(tok), nil)
	if r.Status != 200 || json.Unmarshal(r.Raw, &v) == nil {
		t.Fatalf("malformed freeze: %d %q", r.Status, r.Raw)
	}
	// errors stay intact
	r = e.do("POST", "/v1/card/freeze", bearer(tok), nil)
	want(t, r, 400, "Card is already frozen")
	e.s.SetFaults(Faults{})
	if r := e.do("GET", "/v1/card/status", bearer(tok), nil); r.str("status") != "FROZEN" {
		t.Fatalf("after faults %s", r.Raw)
	}
}
