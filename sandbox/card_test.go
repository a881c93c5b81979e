package sandbox

import (
	"testing"
	"time"
)

func TestCardStatus(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	r := e.do("GET", "/v1/card/status", bearer(tok), nil)
	want(t, r, 200, "")
	exp := map[string]string{"holderName": "ALICE MARTIN", "panLast4": "4242", "expiryDate": "2029/08", "status": "ACTIVE",
		"type": "VIRTUAL", "orderedAt": "2024-01-20T10:00:00Z", "network": "VISA", "id": uuidFrom("card", "alice@demo.test", "0")}
	for k, v := range exp {
		if r.str(k) != v {
			t.Errorf("%s = %q, want %q", k, r.str(k), v)
		}
	}
	for u, st := range map[string]string{"frank@demo.test": "FROZEN", "bruno@demo.test": "BLOCKED", "lena@demo.test": "ACTIVE", "faye@demo.test": "ACTIVE"} {
		tok, _ := e.login(u)
		if r := e.do("GET", "/v1/card/status", bearer(tok), nil); r.str("status") != st {
			t.Errorf("%s card %s", u, r.Raw)
		}
	}
	nora, _ := e.login("nora@demo.test")
	want(t, e.do("GET", "/v1/card/status", bearer(nora), nil), 404, "Card not found")
	want(t, e.do("POST", "/v1/card/freeze", bearer(nora), nil), 404, "Card not found")
	want(t, e.do("POST", "/v1/card/unfreeze", bearer(nora), nil), 404, "Card not found")
}

func cardState(e *env, tok string) string {
	return e.do("GET", "/v1/card/status", bearer(tok), nil).str("status")
}

func TestFreezeUnfreeze(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	want(t, e.do("POST", "/v1/card/unfreeze", bearer(tok), nil), 400, "Card is not frozen")
	r := e.do("POST", "/v1/card/freeze", bearer(tok), nil)
	want(t, r, 200, "")
	if r.JSON["success"] != true || cardState(e, tok) != "FROZEN" {
		t.Fatalf("freeze %s", r.Raw)
	}
	want(t, e.do("POST", "/v1/card/freeze", bearer(tok), nil), 400, "Card is already frozen")
	want(t, e.do("POST", "/v1/card/unfreeze", bearer(tok), nil), 200, "")
	if cardState(e, tok) != "ACTIVE" {
		t.Fatal("not active after unfreeze")
	}

	frank, _ := e.login("frank@demo.test")
	want(t, e.do("POST", "/v1/card/unfreeze", bearer(frank), nil), 200, "")
	if cardState(e, frank) != "ACTIVE" {
		t.Fatal("frank not active")
	}

	bruno, _ := e.login("bruno@demo.test")
	want(t, e.do("POST", "/v1/card/unfreeze", bearer(bruno), nil), 400, "Card is not frozen")
	want(t, e.do("POST", "/v1/card/freeze", bearer(bruno), nil), 400, "Card is blocked and cannot be frozen")
	if cardState(e, bruno) != "BLOCKED" {
		t.Fatal("bruno changed")
	}
	want(t, e.do("POST", "/v1/card/freeze", ck(), nil), 401, "Not authenticated")
}

func TestOrderCard(t *testing.T) {
	e := newEnv(t, Options{})
	alice, _ := e.login("alice@demo.test")
	want(t, e.do("POST", "/v1/card/order", bearer(alice), map[string]string{"type": "VIRTUAL"}), 400, "User already has a card")
	frank, _ := e.login("frank@demo.test") // FROZEN is not BLOCKED
	want(t, e.do("POST", "/v1/card/order", bearer(frank), nil), 400, "User already has a card")

	nora, _ := e.login("nora@demo.test")
	want(t, e.do("POST", "/v1/card/order", bearer(nora), map[string]string{"type": "PLASTIC"}), 422, "")
	e.clock.Advance(90 * time.Minute)
	r := e.do("POST", "/v1/card/order", bearer(nora), nil) // no body: VIRTUAL
	want(t, r, 200, "")
	if r.JSON["success"] != true {
		t.Fatalf("order body %s", r.Raw)
	}
	c := e.do("GET", "/v1/card/status", bearer(nora), nil)
	if c.str("status") != "ACTIVE" || c.str("type") != "VIRTUAL" || c.str("holderName") != "NORA LIND" ||
		c.str("orderedAt") != t0.Add(90*time.Minute).Format(time.RFC3339) || len(c.str("panLast4")) != 4 || c.str("expiryDate") != "2030/03" {
		t.Fatalf("new card %s", c.Raw)
	}
	want(t, e.do("POST", "/v1/card/order", bearer(nora), nil), 400, "User already has a card")

	bruno, _ := e.login("bruno@demo.test")
	old := e.do("GET", "/v1/card/status", bearer(bruno), nil)
	want(t, e.do("POST", "/v1/card/order", bearer(bruno), map[string]string{"type": "metal"}), 200, "")
	c = e.do("GET", "/v1/card/status", bearer(bruno), nil)
	if c.str("status") != "ACTIVE" || c.str("type") != "METAL" || c.str("id") == old.str("id") {
		t.Fatalf("replacement %s (old %s)", c.Raw, old.Raw)
	}
	want(t, e.do("POST", "/v1/card/order", bearer(bruno), map[string]string{"type": "PHYSICAL"}), 400, "User already has a card")
}

func TestConcurrentCardAndAuth(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	done := make(chan struct{})
	for i := 0; i < 8; i++ {
		go func(i int) {
			defer func() { done <- struct{}{} }()
			for j := 0; j < 20; j++ {
				switch (i + j) % 4 {
				case 0:
					e.do("POST", "/v1/card/freeze", bearer(tok), nil)
				case 1:
					e.do("POST", "/v1/card/unfreeze", bearer(tok), nil)
				case 2:
					e.do("GET", "/v1/user", bearer(tok), nil)
				default:
					e.login("frank@demo.test")
					e.clock.Advance(time.Second)
				}
			}
		}(i)
	}
	for i := 0; i < 8; i++ {
		<-done
	}
	if s := cardState(e, tok); s != "ACTIVE" && s != "FROZEN" {
		t.Fatalf("state %q", s)
	}
}
