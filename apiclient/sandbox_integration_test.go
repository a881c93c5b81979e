package apiclient_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

var t0 = time.Date(2030, 6, 1, 12, 0, 0, 0, time.UTC)

// gateway is a real sandbox gateway on a loopback port with a manual clock.
type gateway struct {
	srv   *sandbox.Server
	clock *sandbox.ManualClock
	url   string
}

func newGateway(t *testing.T, opts sandbox.Options) *gateway {
	t.Helper()
	clock := sandbox.NewManualClock(t0)
	opts.Clock = clock
	srv := sandbox.New(opts)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return &gateway{srv: srv, clock: clock, url: hs.URL}
}

// client returns a client on the gateway's clock; mod adjusts its Config.
func (g *gateway) client(mod ...func(*apiclient.Config)) *apiclient.Client {
	cfg := apiclient.Config{
		BaseURL:   g.url,
		ClientKey: sandbox.DemoClientKey,
		ClientID:  demoClientID(),
		SecretKey: sandbox.DemoSecretKey,
		Now:       g.clock.Now,
		Timeout:   5 * time.Second,
	}
	for _, m := range mod {
		m(&cfg)
	}
	return apiclient.New(cfg)
}

// demoClientID is the X-Client-ID of the sandbox's demo tenant.
func demoClientID() string {
	cred, _ := sandbox.CredentialFor(sandbox.DemoClientKey)
	return cred.ClientID
}

func login(t *testing.T, c *apiclient.Client, user string) apiclient.Session {
	t.Helper()
	s, err := c.Login(context.Background(), user, "demo-pass")
	if err != nil {
		t.Fatalf("login %s: %v", user, err)
	}
	return s
}

// signedIn starts a sandbox with the default options and signs user in on
// a client of it (mod adjusts the client's Config): the start most of
// these tests share.
func signedIn(t *testing.T, user string, mod ...func(*apiclient.Config)) (*gateway, *apiclient.Client) {
	t.Helper()
	g := newGateway(t, sandbox.Options{})
	c := g.client(mod...)
	login(t, c, user)
	return g, c
}

func cardStatus(t *testing.T, c *apiclient.Client) apiclient.Card {
	t.Helper()
	card, err := c.CardStatus(context.Background())
	if err != nil {
		t.Fatalf("card status: %v", err)
	}
	return card
}

func wantError(t *testing.T, err error, status int, message string) {
	t.Helper()
	var e *apiclient.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *apiclient.Error %d", err, err, status)
	}
	if e.Status != status || (message != "" && e.Message != message) {
		t.Fatalf("err = %d %q, want %d %q", e.Status, e.Message, status, message)
	}
}

func TestSandboxAliceLoginUserAndCard(t *testing.T) {
	ctx := context.Background()
	g := newGateway(t, sandbox.Options{})
	c := g.client()
	s := login(t, c, "alice@demo.test")
	if s.Kind != apiclient.SessionPassword || s.Username != "alice@demo.test" ||
		!s.ExpiresAt.Equal(t0.Add(6*time.Hour)) || s.RefreshToken == "" || c.Session() != s {
		t.Errorf("session = %+v", s)
	}
	u, err := c.User(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if u.Email != "alice@demo.test" || u.VerificationState != apiclient.VerificationVerified ||
		u.AddressLine2 == nil || u.USState != nil || u.SSN != nil || u.ID == "" {
		t.Errorf("user = %+v", u)
	}
	card := cardStatus(t, c)
	if card.Status != apiclient.CardActive || card.Type != apiclient.CardVirtual || card.PanLast4 != "4242" ||
		card.HolderName == "" || card.ExpiryDate == "" || card.OrderedAt == "" {
		t.Errorf("card = %+v", card)
	}
	// The sandbox sends a member the interface does not show: kept, not lost.
	if _, ok := card.Extra["network"]; !ok {
		t.Errorf("card.Extra = %v, want the sandbox's network member", card.Extra)
	}

	// ACTIVE -> FROZEN -> ACTIVE, with the interface's 400s on the way.
	if err := c.FreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	if got := cardStatus(t, c).Status; got != apiclient.CardFrozen {
		t.Errorf("after freeze: %s", got)
	}
	wantError(t, c.FreezeCard(ctx), 400, "Card is already frozen")
	if err := c.UnfreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	if got := cardStatus(t, c).Status; got != apiclient.CardActive {
		t.Errorf("after unfreeze: %s", got)
	}
	err = c.UnfreezeCard(ctx)
	wantError(t, err, 400, "Card is not frozen")
	if apiclient.ErrorMessage(err) != "Card is not frozen (400)" {
		t.Errorf("ErrorMessage = %q", apiclient.ErrorMessage(err))
	}
	wantError(t, c.OrderCard(ctx, apiclient.CardVirtual), 400, "User already has a card")
}

func TestSandboxFrankUnfreezes(t *testing.T) {
	_, c := signedIn(t, "frank@demo.test")
	if got := cardStatus(t, c).Status; got != apiclient.CardFrozen {
		t.Fatalf("frank's card is %s", got)
	}
	if err := c.UnfreezeCard(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := cardStatus(t, c).Status; got != apiclient.CardActive {
		t.Errorf("after unfreeze: %s", got)
	}
}

func TestSandboxBrunoReplacesBlockedCard(t *testing.T) {
	ctx := context.Background()
	_, c := signedIn(t, "bruno@demo.test")
	old := cardStatus(t, c)
	if old.Status != apiclient.CardBlocked {
		t.Fatalf("bruno's card is %s", old.Status)
	}
	wantError(t, c.UnfreezeCard(ctx), 400, "Card is not frozen")
	if err := c.OrderCard(ctx, apiclient.CardPhysical); err != nil {
		t.Fatal(err)
	}
	card := cardStatus(t, c)
	if card.Status != apiclient.CardActive || card.Type != apiclient.CardPhysical || card.ID == old.ID {
		t.Errorf("new card = %+v", card)
	}
}

func TestSandboxNoraHasNoCard(t *testing.T) {
	ctx := context.Background()
	_, c := signedIn(t, "nora@demo.test")
	_, err := c.CardStatus(ctx)
	if !apiclient.IsNotFound(err) {
		t.Fatalf("err = %v, want 404", err)
	}
	if err := c.OrderCard(ctx, ""); err != nil {
		t.Fatal(err)
	}
	if card := cardStatus(t, c); card.Type != apiclient.CardVirtual || card.Status != apiclient.CardActive {
		t.Errorf("ordered card = %+v", card)
	}
}

func TestSandboxUmarIsUnverified(t *testing.T) {
	ctx := context.Background()
	_, c := signedIn(t, "umar@demo.test")
	u, err := c.User(ctx)
	if err != nil || u.VerificationState != apiclient.VerificationUnverified {
		t.Fatalf("user %+v, %v", u, err)
	}
	_, err = c.CardStatus(ctx)
	wantError(t, err, 403, "Not authorized")
	wantError(t, c.FreezeCard(ctx), 403, "")
	if !c.Session().Valid() {
		t.Error("a 403 ended the session")
	}
}

func TestSandboxSamNeedsUSRouting(t *testing.T) {
	ctx := context.Background()
	g := newGateway(t, sandbox.Options{})
	_, err := g.client().Login(ctx, "sam@demo.test", "demo-pass")
	wantError(t, err, 401, "")

	c := g.client(func(cfg *apiclient.Config) { cfg.US = true })
	login(t, c, "sam@demo.test")
	u, err := c.User(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if u.CountryOfResidence != "US" || u.USState == nil || *u.USState != "CA" {
		t.Errorf("user = %+v", u)
	}
	if u.SSN == nil || !strings.HasPrefix(*u.SSN, "***") || strings.Contains(*u.SSN, "123-45") {
		t.Errorf("ssn not masked: %v", u.SSN)
	}
	if card := cardStatus(t, c); card.Status != apiclient.CardActive {
		t.Errorf("card = %+v", card)
	}
	// The EU backend does not know sam's token.
	eu := g.client()
	eu.SetSession(c.Session())
	_, err = eu.CardStatus(ctx)
	if !apiclient.IsUnauthorized(err) {
		t.Errorf("EU call with a US token: %v", err)
	}
}

func TestSandboxClientKeyRules(t *testing.T) {
	ctx := context.Background()
	g, c := signedIn(t, "alice@demo.test")
	sess := c.Session()

	unknown := g.client(func(cfg *apiclient.Config) { cfg.ClientKey = "ck_nope" })
	_, err := unknown.Login(ctx, "alice@demo.test", "demo-pass")
	wantError(t, err, 498, "")
	unknown.SetSession(sess)
	_, err = unknown.CardStatus(ctx)
	wantError(t, err, 498, "")
	if !unknown.Session().Valid() {
		t.Error("a 498 ended the session")
	}

	// Without a client key the client does not send at all (the sandbox's
	// 499 is checked by the contract tests, on raw requests).
	missing := g.client(func(cfg *apiclient.Config) { cfg.ClientKey = "" })
	missing.SetSession(sess)
	_, err = missing.User(ctx)
	if !apiclient.IsSettingError(err) {
		t.Errorf("no client key: %v", err)
	}
}

func TestSandboxWrongPassword(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	c := g.client()
	_, err := c.Login(context.Background(), "alice@demo.test", "wrong")
	wantError(t, err, 401, "")
	if c.Session().Valid() {
		t.Error("failed login left a session")
	}
}

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
