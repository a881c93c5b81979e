package apiclient_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

func TestSandboxExpiredTokenRefreshesOnce(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	c := g.client()
	var mu sync.Mutex
	var changes []apiclient.Session
	c.OnSessionChange(func(s apiclient.Session) { mu.Lock(); changes = append(changes, s); mu.Unlock() })
	before := login(t, c, "alice@demo.test")

	g.clock.Advance(6*time.Hour + time.Second)
	card := cardStatus(t, c) // 401, refresh, retry
	if card.PanLast4 != "4242" {
		t.Errorf("card = %+v", card)
	}
	after := c.Session()
	if after.AccessToken == before.AccessToken || after.RefreshToken == before.RefreshToken ||
		!after.ExpiresAt.Equal(g.clock.Now().Add(6*time.Hour)) ||
		after.Username != "alice@demo.test" || after.Kind != apiclient.SessionPassword {
		t.Errorf("session after refresh = %+v (before %+v)", after, before)
	}
	mu.Lock()
	if len(changes) != 2 || changes[1] != after {
		t.Errorf("OnSessionChange = %+v", changes)
	}
	mu.Unlock()

	// The old (rotated) refresh token is spent: a client holding it fails
	// to refresh, and its session ends with the original 401 saying why.
	stale := g.client()
	stale.SetSession(before)
	_, err := stale.CardStatus(context.Background())
	wantError(t, err, 401, "Not authenticated; the session could not be renewed: Refresh token is invalid or revoked")
	if stale.Session().Valid() {
		t.Error("stale session kept after a refused refresh")
	}
}

func TestSandboxExpiredTokenWithoutSecretKey(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	c := g.client(func(cfg *apiclient.Config) { cfg.SecretKey = "" })
	var ended bool
	c.OnSessionChange(func(s apiclient.Session) { ended = !s.Valid() })
	login(t, c, "alice@demo.test")
	g.clock.Advance(6 * time.Hour)
	_, err := c.User(context.Background())
	if !apiclient.IsUnauthorized(err) {
		t.Fatalf("err = %v", err)
	}
	if c.Session().Valid() || !ended {
		t.Error("expired session kept")
	}
	_, err = c.Refresh(context.Background())
	if err == nil || apiclient.IsUnauthorized(err) {
		t.Errorf("Refresh without a secret key: %v", err)
	}
}

func TestSandboxRefreshExplicitAndWrongSecret(t *testing.T) {
	ctx := context.Background()
	g := newGateway(t, sandbox.Options{})
	c := g.client()
	first := login(t, c, "alice@demo.test")
	s, err := c.Refresh(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s.AccessToken == first.AccessToken || s.Username != first.Username {
		t.Errorf("refreshed session = %+v", s)
	}
	if _, err := c.User(ctx); err != nil {
		t.Errorf("new token refused: %v", err)
	}

	bad := g.client(func(cfg *apiclient.Config) { cfg.SecretKey = "sk_wrong" })
	login(t, bad, "alice@demo.test")
	_, err = bad.Refresh(ctx)
	var e *apiclient.Error
	if !errors.As(err, &e) || e.Status != 401 || e.Code == "" || len(e.Fields) == 0 {
		t.Fatalf("refresh with a wrong secret: %#v", err)
	}
	if strings.Contains(err.Error(), "sk_wrong") {
		t.Errorf("secret in error text: %v", err)
	}
	if !bad.Session().Valid() {
		t.Error("explicit Refresh failure cleared the session")
	}
}

func TestSandboxLogout(t *testing.T) {
	ctx := context.Background()
	g := newGateway(t, sandbox.Options{})
	c := g.client()
	s := login(t, c, "alice@demo.test")
	if err := c.Logout(ctx); err != nil {
		t.Fatal(err)
	}
	if c.Session().Valid() {
		t.Fatal("session kept after logout")
	}
	// The token and its refresh token are dead at the gateway.
	c.SetSession(s)
	_, err := c.CardStatus(ctx)
	wantError(t, err, 401, "")
	if c.Session().Valid() {
		t.Error("dead session kept")
	}
	// Logout of a dead token still clears the local session.
	c.SetSession(s)
	if err := c.Logout(ctx); !apiclient.IsUnauthorized(err) {
		t.Errorf("logout with a dead token: %v", err)
	}
	if c.Session().Valid() {
		t.Error("logout error left a session")
	}
}

func TestSandboxUserRateLimit(t *testing.T) {
	ctx := context.Background()
	g := newGateway(t, sandbox.Options{UserRateLimitPerMinute: 2})
	c := g.client(func(cfg *apiclient.Config) { cfg.MaxRetryWait = 2 * time.Second })
	login(t, c, "alice@demo.test")
	for range 2 {
		if _, err := c.User(ctx); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	_, err := c.User(ctx)
	var e *apiclient.Error
	if !errors.As(err, &e) || e.Status != 429 || e.RetryAfter <= 2*time.Second {
		t.Fatalf("third call: %#v", err)
	}
	// Retry-After beyond MaxRetryWait: answered at once, not waited out.
	if el := time.Since(start); el > time.Second {
		t.Errorf("429 took %v", el)
	}
	if !strings.Contains(apiclient.ErrorMessage(err), "retry in") {
		t.Errorf("ErrorMessage = %q", apiclient.ErrorMessage(err))
	}
	g.clock.Advance(time.Minute + time.Second)
	if _, err := c.User(ctx); err != nil {
		t.Errorf("after the window: %v", err)
	}
}

func TestSandbox429BurstRetriedOnGETNotOnPOST(t *testing.T) {
	ctx := context.Background()
	g, c := signedIn(t, "alice@demo.test", func(cfg *apiclient.Config) { cfg.MaxRetryWait = 2 * time.Second })

	g.srv.SetFaults(sandbox.Faults{Burst429: 1})
	start := time.Now()
	if _, err := c.CardStatus(ctx); err != nil {
		t.Fatalf("GET after a 429 burst: %v", err)
	}
	if el := time.Since(start); el < 900*time.Millisecond {
		t.Errorf("retried after %v; Retry-After was 1s", el)
	}

	g.srv.SetFaults(sandbox.Faults{Burst429: 1})
	err := c.FreezeCard(ctx)
	wantError(t, err, 429, "")
	g.srv.SetFaults(sandbox.Faults{})
	if got := cardStatus(t, c).Status; got != apiclient.CardActive {
		t.Errorf("a 429'd freeze was resent: card %s", got)
	}

	// Cancelling while waiting out Retry-After ends the call at once.
	g.srv.SetFaults(sandbox.Faults{Burst429: 3})
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	_, err = c.CardStatus(cctx)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("cancelled wait: %v", err)
	}
}

func TestSandboxFaults(t *testing.T) {
	ctx := context.Background()
	g, c := signedIn(t, "alice@demo.test", func(cfg *apiclient.Config) { cfg.Timeout = 100 * time.Millisecond })

	g.srv.SetFaults(sandbox.Faults{Latency: 2 * time.Second})
	_, err := c.CardStatus(ctx)
	if !errors.Is(err, context.DeadlineExceeded) || apiclient.IsStatus(err, 200) {
		t.Errorf("latency beyond the timeout: %v", err)
	}

	g.srv.SetFaults(sandbox.Faults{Malformed: true})
	_, err = c.CardStatus(ctx)
	var e *apiclient.Error
	if !errors.As(err, &e) || e.Status != 200 || !strings.Contains(e.Message, "cannot read") {
		t.Errorf("malformed body: %#v", err)
	}

	g.srv.SetFaults(sandbox.Faults{ErrorRate: 1})
	_, err = c.User(ctx)
	wantError(t, err, 500, "Internal server error")
	g.srv.SetFaults(sandbox.Faults{})
}

func TestSandboxConcurrentCalls(t *testing.T) {
	g, c := signedIn(t, "alice@demo.test")
	g.clock.Advance(7 * time.Hour) // every call starts with an expired token
	var wg sync.WaitGroup
	errs := make(chan error, 12)
	for i := range 12 {
		wg.Go(func() {
			var err error
			if i%2 == 0 {
				_, err = c.User(context.Background())
			} else {
				_, err = c.CardStatus(context.Background())
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if !c.Session().Valid() {
		t.Error("session lost")
	}
}
