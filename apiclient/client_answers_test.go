package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestTimeout(t *testing.T) {
	rec := newRecorder(t)
	release := make(chan struct{})
	defer close(release)
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	c := testClient(rec, func(cfg *Config) { cfg.Timeout = 50 * time.Millisecond })
	start := time.Now()
	_, err := c.User(context.Background())
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("timeout took %v", el)
	}
	var e *Error
	if !errors.As(err, &e) || e.Status != 0 || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %#v", err)
	}
	if got := ErrorMessage(err); got != "the gateway did not answer within 50ms" {
		t.Errorf("ErrorMessage = %q", got)
	}
	if errors.Is(err, context.Canceled) {
		t.Error("a timeout reads as a cancellation")
	}
}

func TestCancelledBeforeAnswer(t *testing.T) {
	rec := newRecorder(t)
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() })
	c := testClient(rec)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(30*time.Millisecond, cancel)
	_, err := c.User(ctx)
	if !errors.Is(err, context.Canceled) || ErrorMessage(err) != "request cancelled" {
		t.Errorf("err = %v", err)
	}
}

func TestTransportError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	c := New(Config{BaseURL: url, ClientKey: "ck"})
	_, err := c.CardStatus(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Status != 0 || e.Err == nil || !strings.HasPrefix(ErrorMessage(err), "cannot reach the gateway: ") {
		t.Errorf("err = %v", err)
	}
}

func TestSuccessBodies(t *testing.T) {
	rec := newRecorder(t)
	c := testClient(rec)
	c.SetSession(Session{AccessToken: "a"})
	for _, tt := range []struct {
		status int
		body   string
		ok     bool
	}{
		{200, `{"success":true}`, true},
		{201, `{"success":true}`, true},
		{200, ``, true},
		{204, ``, true},
		{200, `OK`, true},
		{200, `{}`, true},
		{200, `{"success":false}`, false},
		{400, `{"message":"Card is not frozen"}`, false},
	} {
		rec.json("POST /v1/card/unfreeze", tt.status, tt.body)
		err := c.UnfreezeCard(context.Background())
		if (err == nil) != tt.ok {
			t.Errorf("%d %q: err = %v", tt.status, tt.body, err)
		}
	}
	rec.json("POST /v1/card/order", 200, `{"success":true}`)
	if err := c.OrderCard(context.Background(), ""); err != nil || rec.last().Body != `{"type":"VIRTUAL"}` {
		t.Errorf("order: %v, body %q", err, rec.last().Body)
	}
	if err := c.OrderCard(context.Background(), CardMetal); err != nil || rec.last().Body != `{"type":"METAL"}` {
		t.Errorf("order: %v, body %q", err, rec.last().Body)
	}
	rec.json("POST /v1/card/freeze", 200, `{"success":true}`)
	if err := c.FreezeCard(context.Background()); err != nil || rec.last().Body != "" ||
		rec.last().Header.Get("Content-Type") != "" {
		t.Errorf("freeze: %v, %+v", err, rec.last())
	}
}

func TestUnreadableSuccessBody(t *testing.T) {
	rec := newRecorder(t)
	c := testClient(rec)
	for _, body := range []string{`<html>`, ``, `[1,2]`} {
		rec.json("GET /v1/card/status", 200, body)
		_, err := c.CardStatus(context.Background())
		var e *Error
		if !errors.As(err, &e) || e.Status != 200 {
			t.Errorf("%q: err = %v", body, err)
		}
	}
}

func TestCardStatusNotFound(t *testing.T) {
	rec := newRecorder(t)
	rec.json("GET /v1/card/status", 404, `{"message":"Card not found"}`)
	c := testClient(rec)
	c.SetSession(Session{AccessToken: "a"})
	_, err := c.CardStatus(context.Background())
	if !IsNotFound(err) || ErrorMessage(err) != "Card not found (404)" {
		t.Errorf("err = %v", err)
	}
	if rec.count("GET", "/v1/card/status") != 1 {
		t.Error("404 retried")
	}
}

func TestSessionAccessorsRace(t *testing.T) {
	c := New(Config{BaseURL: "http://127.0.0.1:1", ClientKey: "ck"})
	var n atomic.Int32
	c.OnSessionChange(func(Session) { n.Add(1) })
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			for j := range 50 {
				c.SetSession(Session{AccessToken: fmt.Sprint(i, j)})
				_ = c.Session()
				c.ClearSession()
			}
		})
	}
	wg.Wait()
	if n.Load() < 200 {
		t.Errorf("only %d notifications", n.Load())
	}
	c.ClearSession()
	before := n.Load()
	c.ClearSession()
	if n.Load() != before {
		t.Error("clearing an empty session notified")
	}
}

func TestEmptyCredentialsAreNotSent(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/auth/login", 401, `{"message":"Not authenticated"}`)
	c := New(Config{BaseURL: rec.srv.URL, ClientKey: "ck_x"})
	_, err := c.Login(context.Background(), "a", "b")
	if !IsStatus(err, 401) {
		t.Fatalf("err = %v", err)
	}
	h := rec.last().Header
	for _, name := range []string{"X-Client-ID", "x-secret-key", "Authorization", "x-us-env"} {
		if _, ok := h[http.CanonicalHeaderKey(name)]; ok {
			t.Errorf("%s sent empty", name)
		}
	}
}

// A request whose credentials are not configured, or a chain network the
// interface does not document, is refused before anything is sent, with a
// message naming the setting (the gateway's 499 would not say which).
func TestMissingSettingsAreCaughtBeforeSending(t *testing.T) {
	rec := newRecorder(t)
	ctx := context.Background()
	noKeys := New(Config{BaseURL: rec.srv.URL})
	noKeys.SetSession(Session{AccessToken: "at"})
	withKey := New(Config{BaseURL: rec.srv.URL, ClientKey: "ck_x"})
	withKey.SetSession(Session{AccessToken: "at"})
	for _, c := range []struct {
		name, want string
		call       func() error
	}{
		{"login without a client key", "--client-key", func() error { _, err := noKeys.Login(ctx, "a", "b"); return err }},
		{"user without a client key", "CARDTERM_CLIENT_KEY", func() error { _, err := noKeys.User(ctx); return err }},
		{"products without a client id", "--client-id", func() error { _, err := noKeys.Products(ctx); return err }},
		{"revoke without a secret key", "CARDTERM_SECRET_KEY", func() error { _, err := withKey.RevokeConsent(ctx, "s", "c"); return err }},
		{"an undocumented chain network", "ethereum, linea, solana, etherlink", func() error { _, err := withKey.ChainConfig(ctx, "base"); return err }},
	} {
		err := c.call()
		if !IsSettingError(err) || !strings.Contains(ErrorMessage(err), c.want) {
			t.Errorf("%s: err = %v, want a setting error naming %q", c.name, err, c.want)
		}
		if strings.Contains(err.Error(), "missing or wrong") {
			t.Errorf("%s: the message repeats its tag: %v", c.name, err)
		}
	}
	if n := len(rec.requests()); n != 0 {
		t.Fatalf("%d requests reached the gateway", n)
	}
}
