package apiclient_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
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
