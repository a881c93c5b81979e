package signin

import (
	"image/color"
	"strings"
	"testing"
	"time"

	"cardterm/screens/card"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/account"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/theme"
	"cardterm/ui"
)

func TestMain(m *testing.M) { screentest.Main(m) }

// newApp is the app with the sign-in screen and the Account screen behind it.
var newApp = screentest.Preset{SignIn: screentest.Of(New),
	Options: []screentest.Option{screentest.WithScreen(screentest.Of(account.New), screentest.Of(card.New))}}.New

func TestSignInScreenOnSandbox(t *testing.T) {
	app := newApp(t, screentest.WithDemo())
	app.MustShow(t, "SANDBOX", "Sandbox demo accounts", "alice@demo.test", "•••••••••")
	app.MustNotShow(t, "│ demo-pass")
	app.Golden("signin")

	// The form comes filled: enter alone signs in and shows the account.
	app.Keys("enter")
	app.MustShow(t, "Alice Martin", "VERIFIED", "session 6 h")
}

func TestSignInFailureKeepsWhatWasTyped(t *testing.T) {
	app := newApp(t)
	app.Fill("alice@demo.test", "not-the-password")
	app.Keys("enter")
	s := app.Screen()
	screentest.MustShow(t, s, "Sign-in refused", "Not authenticated", "Check the", "alice@demo.test")
	if app.UI().SignedIn() {
		t.Fatal("signed in with a wrong password")
	}
	app.Golden("signin-refused")
}

// The sign-in form follows the app's one submit rule: enter on the
// username moves to the password, enter on the password or ctrl+s from
// any field signs in.
func TestSignInSubmitsLikeEveryForm(t *testing.T) {
	app := newApp(t)
	app.Type("alice@demo.test")
	app.Keys("enter")
	if app.UI().SignedIn() {
		t.Fatal("enter on the username signed in")
	}
	app.Type("demo-pass")
	app.Keys("enter")
	if !app.UI().SignedIn() {
		t.Fatalf("enter on the password did not sign in:\n%s", app.Screen())
	}

	app = newApp(t)
	app.Fill("alice@demo.test", "demo-pass")
	app.Keys("shift+tab", "ctrl+s")
	if !app.UI().SignedIn() {
		t.Fatalf("ctrl+s from the username did not sign in:\n%s", app.Screen())
	}
}

func TestSignOutKillsTheToken(t *testing.T) {
	app := newApp(t)
	app.SignIn("alice@demo.test")
	old := app.Client.Session()
	app.Keys("S")
	app.MustShow(t, "Sign out?")
	app.Keys("y")
	app.MustShow(t, "Sign in to the Card and Wallet Gateway", "Signed out")
	if app.Client.Session().Valid() {
		t.Fatal("the client still holds a session")
	}
	// The old token is dead at the gateway, not just forgotten here.
	app.Client.SetSession(old)
	if _, err := app.Client.User(t.Context()); err == nil {
		t.Fatal("the old access token still works after sign-out")
	}
}

// The sign-out's confirmation shows the request it sends, as every
// change's does, and offers it as curl since it is whole: the logout for
// a password session, the revoke for an OAuth one.
func TestSignOutConfirmationShowsItsRequest(t *testing.T) {
	for _, tc := range []struct {
		name    string
		kind    apiclient.SessionKind
		request string
	}{
		{"password session", apiclient.SessionPassword, "POST /v1/auth/logout"},
		{"OAuth session", apiclient.SessionOAuth, "DELETE /v1/auth/oauth/revoke"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := newApp(t)
			app.SignIn("alice@demo.test")
			session := app.Client.Session()
			session.Kind = tc.kind
			app.Client.SetSession(session)
			app.Keys("S")
			app.MustShow(t, "Sign out?", tc.request, "copy as curl")
		})
	}
}

func TestExpiredSessionReturnsToSignIn(t *testing.T) {
	app := newApp(t)
	app.SignIn("alice@demo.test")
	app.Client.SetSession(screentest.WithoutRefresh(app.Client.Session()))
	app.Clock.Advance(6*time.Hour + time.Minute)
	app.Keys("r")
	app.MustShow(t, "Sign in to the Card and Wallet Gateway", "session has ended")
}

// esc while a sign-in is in flight cancels that request and says so on the
// form.
func TestEscCancelsTheSignIn(t *testing.T) {
	app := newApp(t, screentest.WithDemo())
	app.Root.Update(tea.KeyPressMsg{Code: tea.KeyEnter}) // the login command is not run
	if n := app.Deps.Requests.InFlightFor(ui.ScreenSignIn); n != 1 {
		t.Fatalf("%d sign-in requests in flight", n)
	}
	app.Keys("esc")
	if n := app.Deps.Requests.InFlight(); n != 0 {
		t.Fatalf("esc left %d requests in flight", n)
	}
}

func TestSignInInputsFollowTheTerminalBackground(t *testing.T) {
	app := newApp(t)
	// inputLine is the style sequence just before the placeholder: what
	// the input itself draws, not the theme-styled box around it.
	inputLine := func() string {
		frame := app.Root.View().Content
		i := strings.Index(frame, "sername or email")
		if i < 0 {
			t.Fatal("no username input on screen")
		}
		start := strings.LastIndex(frame[:i], "\x1b[")
		return frame[start:i]
	}
	dark := inputLine()
	// A light terminal answers the background query: the root rebuilds the
	// styles, and the inputs, made before it was known, must follow.
	app.Drive(tea.BackgroundColorMsg{Color: color.White})
	if light := inputLine(); light == dark {
		t.Fatalf("the username input kept its dark-terminal styles: %q", light)
	}
}

func TestOAuthHostileLinkIsNotAHyperlink(t *testing.T) {
	st := theme.New(true, false)
	lb, err := screenkit.StartLoopback("state")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lb.Close)
	s := New(screenkit.Deps{Styles: &st, Requests: ui.NewRequests(), Client: apiclient.New(apiclient.Config{})})
	s.mode = modeOAuth
	s.flow = &oauthFlow{ID: 1, Loopback: lb, Link: "https://gw.example/authorize?x=\x07\x1b]52;c;ZWNobyBoaQ==\x07"}
	s.SetSize(100, 30)
	screentest.MustBeClean(t, "the OAuth panel", s.View())

	s.flow.Link = "https://gw.example/authorize?client_id=abc"
	if frame := s.View(); !strings.Contains(frame, "\x1b]8;;https://gw.example/authorize?client_id=abc\x07") {
		t.Fatalf("a clean link is no longer a hyperlink:\n%q", frame)
	}
}

// The keys start on the demo accounts: ? opens the help (nothing is typed
// into the password), and enter on an account signs in as it.
func TestSignInPicksADemoAccount(t *testing.T) {
	app := newApp(t, screentest.WithDemo(), screentest.WithSize(80, 24))
	app.MustShow(t, "› Sandbox demo accounts", "alice@demo.test", "row 1 of 10")
	app.Keys("?")
	app.MustShow(t, "Help", "sign in")
	app.Keys("?")
	if got := app.UI().Active().(*Screen).password.Value(); got != "demo-pass" {
		t.Fatalf("? typed into the password: %q", got)
	}
	app.Keys("down", "enter")
	if !app.UI().SignedIn() || app.Client.Session().Username != "frank@demo.test" {
		t.Fatalf("picking frank did not sign in as frank:\n%s", app.Screen())
	}
}

// Every demo account is reachable on an 80x24 terminal: the list scrolls.
func TestSignInDemoListScrollsAt80x24(t *testing.T) {
	app := newApp(t, screentest.WithDemo(), screentest.WithSize(80, 24))
	// The hints the footer gives too leave room for three accounts at once.
	app.MustShow(t, "alice@demo.test", "frank@demo.test", "bruno@demo.test", "ctrl+o browser/phone sign-in", "q quit", "? help")
	app.Keys("G")
	app.MustShow(t, "mallory@demo.test")
}

// Signed out, the help lists only keys that work: no number keys, no
// sign-out, no navigation keys; signed in, they are back.
func TestHelpSignedOutListsOnlyWhatWorks(t *testing.T) {
	app := newApp(t, screentest.WithDemo())
	app.Keys("f1")
	s := app.Screen()
	screentest.MustShow(t, s, "Help", "quit", "notice log")
	screentest.MustNotShow(t, s, "jump to screen", "sign out", "hide/show navigation")
	app.Keys("esc", "enter")
	app.Keys("?")
	app.MustShow(t, "jump to screen", "sign out")
}

// Each message once: after ctrl+o opened the sign-in page and esc
// cancelled it, the form says it is cancelled and the status bar no longer
// says the page opened; after a sign-out the form says why, the status bar
// does not say it again.
func TestCancelledBrowserSignInClearsItsOpenedNotice(t *testing.T) {
	t.Setenv("BROWSER", "true")
	app := newApp(t)
	app.Keys("ctrl+o")
	opened, ok := app.UI().CurrentNotice()
	if !ok || !strings.Contains(strings.ToLower(opened.Text), "open") {
		t.Fatalf("ctrl+o raised no opened notice: %+v\n%s", opened, app.Screen())
	}
	app.Keys("esc")
	app.MustShow(t, "Sign-in with the browser cancelled.")
	if n, ok := app.UI().CurrentNotice(); ok && n.Text == opened.Text {
		t.Fatalf("the status bar still says %q after the cancel:\n%s", n.Text, app.Screen())
	}

	app.SignIn("alice@demo.test")
	app.Keys("S", "y")
	screen := app.Screen()
	if c := strings.Count(screen, "Signed out"); c != 1 {
		t.Fatalf("the sign-out is said %d times:\n%s", c, screen)
	}
}

// In a text field the single-letter keys type: the help f1 opens there
// lists only the keys that still work, not ? or q.
func TestHelpInATextFieldListsOnlyKeysThatWork(t *testing.T) {
	app := newApp(t) // no demo accounts: the cursor is in the username
	app.Keys("f1")
	s := app.Screen()
	screentest.MustShow(t, s, "Help", "Global (while typing)", "f1", "ctrl+c")
	screentest.MustNotShow(t, s, "q   quit", "? help", "notice log")
}
