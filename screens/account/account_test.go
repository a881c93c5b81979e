package account_test

import (
	"strings"
	"testing"
	"time"

	"cardterm/screens/card"

	tea "charm.land/bubbletea/v2"

	"cardterm/screens/account"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui"
)

func TestMain(m *testing.M) { screentest.Main(m) }

// newApp is the app with Account and Card, as the golden files show them.
var newApp = screentest.Preset{SignIn: screentest.Of(signin.New),
	Options: []screentest.Option{screentest.WithScreen(screentest.Of(account.New), screentest.Of(card.New))}}.New

func TestAccountScreen(t *testing.T) {
	app := newApp(t)
	app.SignIn("alice@demo.test")
	s := app.Screen()
	screentest.MustShow(t, s, "Alice Martin", "VERIFIED", "alice@demo.test", "1990-04-12", "+33 612345678",
		"FR", "expires 2026-11-22 15:00 UTC", "session 6 h", "Created        2024-01-15 08:30 UTC")
	app.Golden("account-alice")

	// The status bar counts down on the injected clock.
	app.Clock.Advance(90 * time.Minute)
	app.Keys("r")
	app.MustShow(t, "in 4 h 30 min", "session 4 h 30 min")
}

func TestAccountOfUSResident(t *testing.T) {
	app := newApp(t, screentest.WithUS())
	app.SignIn("sam@demo.test")
	app.MustShow(t, "Sam Rivera", "US state", "CA", "***-**-6789", "US")
	app.Golden("account-us")
}

func TestHostileGatewayTextIsNeutralised(t *testing.T) {
	app := newApp(t)
	app.SignIn("mallory@demo.test")
	frame := app.Root.View().Content
	for _, bad := range []string{"\x1b]8;", "\x1b]52;", "\x07", "\r", "\u202e", "\u200b", "\x1b[31m"} {
		if strings.Contains(frame, bad) {
			t.Fatalf("the frame carries %q from the gateway", bad)
		}
	}
	app.MustShow(t, "<U+202E>", "<U+200B>")
	app.Golden("account-hostile")
}

func TestAccountDropsTheUserOnSignOut(t *testing.T) {
	for _, end := range []tea.Msg{ui.SignedOutMsg{}, ui.SessionExpiredMsg{}} {
		app := newApp(t)
		app.SignIn("alice@demo.test")
		app.Open(screenkit.AccountScreen)
		app.MustShow(t, "Alice Martin")
		app.Drive(end)
		app.SignIn("frank@demo.test")
		app.Open(screenkit.AccountScreen)
		app.MustNotShow(t, "Alice")
	}
}

// A gateway that grants no lifetime leaves the expiry unknown: the screen
// says so instead of "expires 0001-01-01 00:00 (in expired)".
func TestAccountSaysWhenTheExpiryIsUnknown(t *testing.T) {
	app := newApp(t)
	app.SignIn("alice@demo.test")
	s := app.Client.Session()
	s.ExpiresAt = time.Time{}
	app.Client.SetSession(s)
	app.Keys("r")
	app.MustShow(t, "expiry unknown")
	app.MustNotShow(t, "0001-01-01", "in expired")
}

// i shows the profile and the card exactly as the gateway sent them.
func TestInspectProfileAndCard(t *testing.T) {
	app := newApp(t)
	app.SignIn("alice@demo.test")
	app.Keys("i")
	app.MustShow(t, "JSON as the gateway sent it", "user profile", `"email": "alice@demo.test"`)
	app.Keys("esc", "2", "i")
	app.MustShow(t, "JSON as the gateway sent it", "card", `"status": "ACTIVE"`)
	app.Keys("esc")
	app.MustNotShow(t, "JSON as the gateway sent it")
}

// The profile is kept between frames, yet its session line counts down
// with the clock alone: no reload, only a key that changes nothing.
func TestAccountSessionCountsDownWithoutAReload(t *testing.T) {
	app := newApp(t)
	app.SignIn("alice@demo.test")
	app.MustShow(t, "(in 6 h)")
	app.Clock.Advance(61 * time.Minute)
	app.Keys("down")
	app.MustShow(t, "(in 4 h 59 min)")
}
