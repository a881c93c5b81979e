package card_test

import (
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
)

// moveSandboxClock moves the sandbox's time over HTTP, as `cardterm
// sandbox clock` does, with a client of its own.
func moveSandboxClock(t *testing.T, app *screentest.App, step string) {
	t.Helper()
	cfg := app.Client.Config()
	cfg.SecretKey = "sk_sandbox_acme"
	if _, err := apiclient.New(cfg).SandboxClockSet(t.Context(), apiclient.SandboxClockMove{Advance: step}); err != nil {
		t.Fatal(err)
	}
}

// tokenRefreshes counts the refresh grants the sandbox answered.
func tokenRefreshes(app *screentest.App) int {
	n := 0
	for _, q := range app.Server.Requests() {
		if q.Path == "/v1/auth/oauth/token" {
			n++
		}
	}
	return n
}

// The sandbox clock moves past the access token's 6 hours while the app
// is open: its next call is refused, and it renews the session with the
// refresh token, unseen.
func TestSandboxClockPastTheAccessTokenRenewsIt(t *testing.T) {
	app := newApp(t)
	app.SignIn("alice@demo.test")
	app.Open(screenkit.CardScreen)
	moveSandboxClock(t, app, "7h")
	app.Keys("r")
	app.MustShow(t, "ACTIVE", "ALICE MARTIN")
	if n := tokenRefreshes(app); n != 1 || !app.UI().SignedIn() {
		t.Fatalf("%d refreshes, signed in %v; screen:\n%s", n, app.UI().SignedIn(), app.Screen())
	}
	// The status bar says the sandbox's time while it differs from ours.
	app.MustShow(t, "sandbox time "+app.Clock.Now().Add(7*time.Hour).UTC().Format("2006-01-02 15:04")+" UTC")
	cfg := app.Client.Config()
	cfg.SecretKey = "sk_sandbox_acme"
	if _, err := apiclient.New(cfg).SandboxClockSet(t.Context(), apiclient.SandboxClockMove{Reset: true}); err != nil {
		t.Fatal(err)
	}
	app.Keys("r")
	app.MustNotShow(t, "sandbox time")
}

func TestSandboxClockEndsASessionItCannotRenew(t *testing.T) {
	cases := []struct {
		name string
		step string
		opts []screentest.Option
	}{
		{"access token expired, no secret key", "7h", []screentest.Option{screentest.WithConfig(func(c *apiclient.Config) { c.SecretKey = "" })}},
		{"refresh token expired too", "185d", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			app := newApp(t, tc.opts...)
			app.SignIn("alice@demo.test")
			app.Open(screenkit.CardScreen)
			moveSandboxClock(t, app, tc.step)
			app.Keys("r")
			app.MustShow(t, "Sign in to the Card and Wallet Gateway", "session")
			if app.UI().SignedIn() {
				t.Fatalf("still signed in:\n%s", app.Screen())
			}
		})
	}
}
