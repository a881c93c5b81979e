package apiclient

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// A 307 to another host would re-send the login body (the password) and
// headers there: it is not followed, and nothing arrives at the other host.
func TestRedirectToAnotherHostIsNotFollowed(t *testing.T) {
	var reached atomic.Int32
	var leaked atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		body, _ := io.ReadAll(r.Body)
		leaked.Store(string(body) + r.Header.Get("x-secret-key"))
	}))
	defer other.Close()
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer gw.Close()
	c := New(Config{BaseURL: gw.URL, ClientKey: "ck", SecretKey: "sk_very_secret"})
	_, err := c.Login(context.Background(), "alice", "correct horse battery")
	if err == nil || !strings.Contains(err.Error(), "redirected") {
		t.Fatalf("err %v", err)
	}
	if reached.Load() != 0 {
		t.Fatalf("the other host was reached with %q", leaked.Load())
	}
	if _, err := c.RevokeConsent(context.Background(), "set", "consent"); err == nil || reached.Load() != 0 {
		t.Fatalf("a consent revoke followed the redirect: %v", err)
	}
}

// A gateway echoing the login body in its refusal gets no password drawn.
func TestEchoedPasswordIsRedacted(t *testing.T) {
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = io.WriteString(w, `{"message":"bad login: `+strings.ReplaceAll(string(body), `"`, `'`)+`"}`)
	}))
	defer gw.Close()
	c := New(Config{BaseURL: gw.URL, ClientKey: "ck"})
	_, err := c.Login(context.Background(), "alice", "hunter2-hunter2")
	if err == nil || strings.Contains(err.Error(), "hunter2-hunter2") || strings.Contains(ErrorMessage(err), "hunter2-hunter2") {
		t.Fatalf("the password is in the error: %v", err)
	}
}

// A token with a CR or LF would end a header: sign-in is refused clearly.
func TestTokenWithLineBreakIsRefused(t *testing.T) {
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"accessToken":"abc\r\nX-Evil: 1","refreshToken":"r","expiresIn":3600}`)
	}))
	defer gw.Close()
	c := New(Config{BaseURL: gw.URL, ClientKey: "ck"})
	_, err := c.Login(context.Background(), "alice", "pw-pw-pw-pw")
	if err == nil || !strings.Contains(ErrorMessage(err), "token is malformed") {
		t.Fatalf("err %v", err)
	}
	if c.Session().Valid() {
		t.Fatal("a malformed token made a session")
	}
}

// An answer past the body limit says so, instead of "cannot read".
func TestAnswerLargerThanTheLimit(t *testing.T) {
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `[`+strings.Repeat(`{"id":"x"},`, 400)+`{"id":"y"}]`)
	}))
	defer gw.Close()
	c := New(Config{BaseURL: gw.URL, ClientKey: "ck"})
	c.SetSession(Session{AccessToken: "token-token"})
	c.maxBody = 2 << 20 >> 10 // 2 KiB for the test
	_, err := c.Whitelist(context.Background(), "usdc")
	if err == nil || !strings.Contains(ErrorMessage(err), "the answer is larger than") {
		t.Fatalf("err %v", err)
	}
	if maxBody < 256<<20 {
		t.Fatalf("the default limit is %d bytes, under 256 MiB", maxBody)
	}
}
