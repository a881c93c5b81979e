package screens

import (
	"net/http/httptest"
	"os"
	"regexp"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/apiclient/sandbox"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// The screen tests drive the real root model against the real sandbox
// gateway over HTTP, on a manual clock, and read the rendered screen.

// testEpoch is the sandbox clock's start: fixed so golden files are stable.
var testEpoch = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

func TestMain(m *testing.M) {
	// Times are shown in local time; pin it so golden files match anywhere.
	time.Local = time.UTC
	os.Exit(m.Run())
}

// testApp is a root model wired like main's, around its own sandbox.
type testApp struct {
	t      testing.TB
	root   tea.Model
	deps   Deps
	clock  *sandbox.ManualClock
	server *sandbox.Server
	client *apiclient.Client
}

// testSetup is what appOptions change before the app is built.
type testSetup struct {
	deps  Deps
	cfg   apiclient.Config
	extra []func(Deps) ui.Screen
}

type appOption func(*testSetup)

func withDemo() appOption {
	return func(ts *testSetup) {
		d := &ts.deps
		for _, u := range sandbox.DemoUsers() {
			if u.Region == "eu" {
				d.Demo = append(d.Demo, DemoHint{Username: u.Username, Password: u.Password, Summary: u.Summary})
			}
		}
	}
}

func withUS() appOption { return func(ts *testSetup) { ts.cfg.US = true } }

func readOnly() appOption { return func(ts *testSetup) { ts.deps.ReadOnly = true } }

// withScreen mounts one more screen (built from the test's Deps) beside
// Account and Card, e.g. withScreen(NewWebhooks).
func withScreen[S ui.Screen](build func(Deps) S) appOption {
	return func(ts *testSetup) {
		ts.extra = append(ts.extra, func(d Deps) ui.Screen { return build(d) })
	}
}

func newTestApp(t testing.TB, opts ...appOption) *testApp {
	t.Helper()
	clock := sandbox.NewManualClock(testEpoch)
	server := sandbox.New(sandbox.Options{Clock: clock})
	hs := httptest.NewServer(server)
	t.Cleanup(hs.Close)
	server.SetBaseURL(hs.URL)

	styles := theme.New(true, false)
	ts := testSetup{
		cfg:  apiclient.Config{BaseURL: hs.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey, Now: clock.Now},
		deps: Deps{Requests: ui.NewRequests(), Styles: &styles, Now: clock.Now},
	}
	for _, o := range opts {
		o(&ts)
	}
	cfg, deps := ts.cfg, ts.deps
	client := apiclient.New(cfg)
	deps.Client = client
	root := ui.NewRoot(ui.RootOptions{
		Styles:   &styles,
		Requests: deps.Requests,
		SignIn:   NewSignIn(deps),
		Screens:  screensFor(deps, ts.extra),
		Gateway:  "SANDBOX",
		Sandbox:  true,
		US:       cfg.US,
		ReadOnly: deps.ReadOnly,
		Session: func() (string, time.Time, bool) {
			s := client.Session()
			return s.Username, s.ExpiresAt, s.Valid()
		},
		Now: clock.Now,
	})
	app := &testApp{t: t, root: root, deps: deps, clock: clock, server: server, client: client}
	// Init focuses the sign-in form, as the program would on start.
	app.drive(append([]tea.Msg{tea.WindowSizeMsg{Width: 100, Height: 30}}, uitest.Run(root.Init())...)...)
	return app
}

// screensFor builds Account, Card and the screens withScreen asked for.
func screensFor(deps Deps, extra []func(Deps) ui.Screen) []ui.Screen {
	out := []ui.Screen{NewAccount(deps), NewCard(deps)}
	for _, build := range extra {
		out = append(out, build(deps))
	}
	return out
}

// drive feeds messages and runs the commands they cause.
func (a *testApp) drive(msgs ...tea.Msg) {
	a.t.Helper()
	a.root = uitest.Drive(a.root, msgs...)
}

// keys presses keys by name ("enter", "f", "ctrl+u").
func (a *testApp) keys(names ...string) { a.t.Helper(); a.drive(uitest.Keys(names...)...) }

// typeText types text into the focused input.
func (a *testApp) typeText(s string) { a.t.Helper(); a.drive(uitest.Type(s)...) }

// screen is the rendered frame as plain text.
func (a *testApp) screen() string { return uitest.Plain(a.root.View()) }

// signIn types the credentials of a demo user (the form is empty when the
// app runs without demo hints) and presses enter.
func (a *testApp) signIn(username string) {
	a.t.Helper()
	a.drive(uitest.Key("ctrl+u"))
	a.typeText(username)
	a.keys("tab", "ctrl+u")
	a.typeText("demo-pass")
	a.keys("enter")
	if !a.root.(*ui.Root).SignedIn() {
		a.t.Fatalf("sign-in as %s failed; the screen shows:\n%s", username, a.screen())
	}
}

var loopbackPort = regexp.MustCompile(`127\.0\.0\.1:\d{4,5}`)

// golden compares the frame, in the ASCII colour profile, with its golden
// file. The sandbox's random port is the one part that varies by run.
func (a *testApp) golden(name string) {
	a.t.Helper()
	frame := uitest.ASCII(a.root.View())
	uitest.Golden(a.t.(*testing.T), name, loopbackPort.ReplaceAllString(frame, "127.0.0.1:PORT"))
}

// withoutRefresh drops the refresh token, so the client cannot renew the
// session and a 401 ends it.
func withoutRefresh(s apiclient.Session) apiclient.Session {
	s.RefreshToken = ""
	return s
}
