package sandbox

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestUserProfile(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	r := e.do("GET", "/v1/user", bearer(tok), nil)
	want(t, r, 200, "")
	var u userJSON
	if err := json.Unmarshal(r.Raw, &u); err != nil {
		t.Fatal(err)
	}
	if u.ID != uuidFrom("user", "alice@demo.test") || u.FirstName != "Alice" || u.LastName != "Martin" ||
		u.VerificationState != "VERIFIED" || u.Email != "alice@demo.test" || u.PhoneCountryCode != "+33" ||
		u.AddressLine2 == nil || u.USState != nil || u.SSN != nil || u.DateOfBirth != "1990-04-12" {
		t.Fatalf("alice %+v", u)
	}
	if _, err := time.Parse(time.RFC3339, u.CreatedAt); err != nil || !strings.HasSuffix(u.CreatedAt, "+01:00") {
		t.Fatalf("createdAt %q", u.CreatedAt)
	}
	// every field of the interface's User is present, nulls included
	for _, k := range []string{"id", "firstName", "lastName", "dateOfBirth", "email", "verificationState", "phoneNumber",
		"phoneCountryCode", "addressLine1", "addressLine2", "city", "zip", "countryOfResidence", "countryOfNationality",
		"usState", "ssn", "createdAt"} {
		if _, ok := r.JSON[k]; !ok {
			t.Errorf("field %s missing", k)
		}
	}
	// deterministic: a second sandbox gives the same answer
	e2 := newEnv(t, Options{})
	tok2, _ := e2.login("alice@demo.test")
	if r2 := e2.do("GET", "/v1/user", bearer(tok2), nil); string(r2.Raw) != string(r.Raw) {
		t.Fatalf("not deterministic:\n%s\n%s", r.Raw, r2.Raw)
	}
	nora, _ := e.login("nora@demo.test")
	if r := e.do("GET", "/v1/user", bearer(nora), nil); r.JSON["addressLine2"] != nil {
		t.Fatalf("nora addressLine2 %s", r.Raw)
	}
}

func TestHostileUserText(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("mallory@demo.test")
	r := e.do("GET", "/v1/user", bearer(tok), nil)
	all := r.str("firstName") + r.str("lastName") + r.str("city")
	for _, bad := range []string{"\x1b[31m", "\x1b]8;;", "\x1b]52;", "\r", "\a", "\u202e", "\u200b"} {
		if !strings.Contains(all, bad) {
			t.Errorf("mallory lacks %q", bad)
		}
	}
	c := e.do("GET", "/v1/card/status", bearer(tok), nil)
	if !strings.Contains(c.str("holderName"), "\x1b[") {
		t.Errorf("holder name %q", c.str("holderName"))
	}
}

func TestUserRateLimitPerToken(t *testing.T) {
	e := newEnv(t, Options{UserRateLimitPerMinute: 3})
	tok, _ := e.login("alice@demo.test")
	other, _ := e.login("frank@demo.test")
	for i := 0; i < 3; i++ {
		want(t, e.do("GET", "/v1/user", bearer(tok), nil), 200, "")
		e.clock.Advance(10 * time.Second)
	}
	r := e.do("GET", "/v1/user", bearer(tok), nil)
	want(t, r, 429, "Too many requests")
	if r.Header.Get("Retry-After") != "30" { // the first hit frees at 60s; we are at 30s
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	want(t, e.do("GET", "/v1/user", bearer(other), nil), 200, "")      // per token
	want(t, e.do("GET", "/v1/card/status", bearer(tok), nil), 200, "") // only /v1/user is limited
	e.clock.Advance(29 * time.Second)
	r = e.do("GET", "/v1/user", bearer(tok), nil)
	if r.Status != 429 || r.Header.Get("Retry-After") != "1" {
		t.Fatalf("at 59s: %d %q", r.Status, r.Header.Get("Retry-After"))
	}
	e.clock.Advance(time.Second)
	want(t, e.do("GET", "/v1/user", bearer(tok), nil), 200, "")
	want(t, e.do("GET", "/v1/user", bearer(tok), nil), 429, "")
}

func TestUserRateLimitPerClientKey(t *testing.T) {
	e := newEnv(t, Options{UserRateLimitPerHour: 4})
	a, _ := e.login("alice@demo.test")
	f, _ := e.login("frank@demo.test")
	for i := 0; i < 2; i++ {
		want(t, e.do("GET", "/v1/user", bearer(a), nil), 200, "")
		want(t, e.do("GET", "/v1/user", bearer(f), nil), 200, "")
	}
	e.clock.Advance(10 * time.Minute)
	r := e.do("GET", "/v1/user", bearer(a), nil)
	want(t, r, 429, "Too many requests")
	if r.Header.Get("Retry-After") != strconv.Itoa(50*60) {
		t.Fatalf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	// another client key has its own budget
	rg := e.do("POST", "/v1/auth/login", hdr("x-client-key", "ck_sandbox_globex"), map[string]string{"username": "gus@globex.test", "password": "demo-pass"})
	want(t, e.do("GET", "/v1/user", hdr("x-client-key", "ck_sandbox_globex", "Authorization", "Bearer "+rg.str("accessToken")), nil), 200, "")
	e.clock.Advance(50 * time.Minute)
	want(t, e.do("GET", "/v1/user", bearer(f), nil), 200, "")
}

func TestUserRateLimitDefault1000PerMinute(t *testing.T) {
	e := newEnv(t, Options{})
	tok, _ := e.login("alice@demo.test")
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8}}
	defer client.CloseIdleConnections()
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	jobs := make(chan struct{})
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				req, _ := http.NewRequest("GET", e.ts.URL+"/v1/user", nil)
				req.Header = bearer(tok)
				res, err := client.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				res.Body.Close()
				mu.Lock()
				codes[res.StatusCode]++
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < 1005; i++ {
		jobs <- struct{}{}
	}
	close(jobs)
	wg.Wait()
	if codes[200] != 1000 || codes[429] != 5 {
		t.Fatalf("codes %v", codes)
	}
	r := e.do("GET", "/v1/user", bearer(tok), nil)
	if r.Status != 429 || r.Header.Get("Retry-After") != "60" {
		t.Fatalf("after 1000: %d %q", r.Status, r.Header.Get("Retry-After"))
	}
	e.clock.Advance(time.Minute)
	want(t, e.do("GET", "/v1/user", bearer(tok), nil), 200, "")
}
