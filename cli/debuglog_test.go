package cli

import (
	"log/slog"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/cli/clitest"
	"cardterm/sandbox"
	"cardterm/screens"
	"cardterm/screens/screentest"
)

// TestDebugLogOfAWholeSessionHoldsNoSecret signs in, opens every screen,
// lets the session expire so the client refreshes it, opens the card's
// hosted pages, and signs out, with the debug log on: every request has
// its line, and no password, key, token or hosted-page URL is in it.
func TestDebugLogOfAWholeSessionHoldsNoSecret(t *testing.T) {
	var log clitest.Buffer
	logger := slog.New(slog.NewTextHandler(&log, nil))
	app := screentest.New(t, screens.SignIn, screentest.WithScreen(screentest.EachOf(screens.All)...), screentest.WithSize(140, 45),
		screentest.WithConfig(func(c *apiclient.Config) { c.Logger = logger }))
	var sessions []apiclient.Session
	app.SignIn("alice@demo.test")
	sessions = append(sessions, app.Client.Session())
	for _, k := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"} {
		app.Keys(k)
	}
	// The access token expires; the next load gets a 401 and the client
	// refreshes with the refresh token and the secret key.
	app.Clock.Advance(7 * time.Hour)
	app.Keys("1", "r")
	sessions = append(sessions, app.Client.Session())
	if sessions[1].AccessToken == sessions[0].AccessToken {
		t.Fatal("the session was not refreshed")
	}
	// Hosted pages and card-details images: single-use URLs.
	link, err := app.Client.CardDetailsToken(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	pin, err := app.Client.PINToken(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	app.Keys("S", "y")

	text := log.String()
	for _, want := range []string{"path=/v1/auth/login", "path=/v1/auth/oauth/token", "path=/v1/card", "path=/v1/auth/logout", "status=401", "retry=0", "retry=1", "duration="} {
		if !strings.Contains(text, want) {
			t.Errorf("the debug log lacks %q", want)
		}
	}
	secrets := map[string]string{
		"password":     "demo-pass",
		"secret key":   sandbox.DemoSecretKey,
		"client key":   sandbox.DemoClientKey,
		"bearer":       "Bearer",
		"image URL":    link.ImageURL,
		"detail token": link.Token,
		"PIN image":    pin.ImageURL,
	}
	for i, s := range sessions {
		secrets["access token "+string(rune('1'+i))] = s.AccessToken
		secrets["refresh token "+string(rune('1'+i))] = s.RefreshToken
	}
	for what, secret := range secrets {
		if secret == "" {
			t.Fatalf("no %s to look for", what)
		}
		if strings.Contains(text, secret) {
			t.Errorf("the debug log holds the %s", what)
		}
	}
	lines := strings.Count(text, "\n")
	if lines < 15 {
		t.Fatalf("only %d lines for a whole session:\n%s", lines, text)
	}
}
