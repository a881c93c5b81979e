// Package screentest drives screens the way the program does: the real
// root model, the real sandbox gateway over HTTP on a manual clock, keys
// pressed by name and the frame read back as text. Every screen package's
// tests use it; it imports no screen, so each test names the screens it
// mounts (the sign-in screen included).
package screentest

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/recordcommand"
	"cardterm/domain/savedview"
	"cardterm/sandbox"
	"cardterm/screens/screenkit"
	"cardterm/screens/shell"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// Epoch is the sandbox clock's start: fixed so golden files are stable.
var Epoch = time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)

// Main pins local time to UTC (times are shown in local time, and golden
// files must match anywhere), seals the tests from this machine's settings
// (uitest.Main) and runs them; call it from TestMain.
func Main(m *testing.M) {
	time.Local = time.UTC
	uitest.Main(m)
}

// Build makes a screen from the test's Deps (signin.New, card.New, ...).
type Build func(screenkit.Deps) ui.Screen

// Of adapts a constructor returning a concrete screen type.
func Of[S ui.Screen](build func(screenkit.Deps) S) Build {
	return func(d screenkit.Deps) ui.Screen { return build(d) }
}

// EachOf is a Build per screen a registry function makes (screens.All), in
// its order, so a test mounts every screen of the navigation as main does.
func EachOf(all func(screenkit.Deps) []ui.Screen) []Build {
	probe := all(screenkit.Deps{Requests: ui.NewRequests()})
	builds := make([]Build, len(probe))
	for i := range probe {
		builds[i] = func(d screenkit.Deps) ui.Screen { return all(d)[i] }
	}
	return builds
}

// App is a root model wired like main's, around its own sandbox.
type App struct {
	T      testing.TB
	Root   tea.Model
	Deps   screenkit.Deps
	Clock  *sandbox.ManualClock
	Server *sandbox.Server
	Client *apiclient.Client
	// URL is the sandbox's base URL.
	URL string
	// Raw is every sequence the app wrote to the terminal itself
	// (tea.Raw: desktop notifications), in order.
	Raw []string
}

// Setup is what options change before the app is built.
type Setup struct {
	// Shell is the app's wiring as main fills it (screens/shell); the
	// client and the screens are added when the app is built.
	Shell   shell.Config
	Config  apiclient.Config
	Sandbox sandbox.Options
	SignIn  Build
	Screens []Build
	// Support is the support console, and StartInSupport opens it first.
	Support        Build
	StartInSupport bool
	Width          int
	Height         int
	// Wrap, when set, stands between the client and the sandbox: a
	// gateway of sandbox/gatewaytest (strict, rate-limited, endless).
	Wrap func(http.Handler) http.Handler
	// Proxy, if set, puts a server in front of the sandbox and returns the
	// URL the client talks to (WithHostileGateway).
	Proxy func(t testing.TB, sandboxURL string) string
}

// Option changes the setup.
type Option func(*Setup)

// WithDemo shows the sandbox's EU demo accounts on the sign-in screen.
func WithDemo() Option {
	return func(s *Setup) {
		for _, u := range sandbox.DemoUsers() {
			if u.Region == "eu" {
				s.Shell.Demo = append(s.Shell.Demo, screenkit.DemoHint{Username: u.Username, Password: u.Password, Summary: u.Summary})
			}
		}
	}
}

// WithUS routes the client to the US backend.
func WithUS() Option { return func(s *Setup) { s.Config.US = true } }

// ReadOnly starts the app in --read-only mode: the screens hide their
// changes and the client refuses them, as cli builds it.
func ReadOnly() Option {
	return func(s *Setup) { s.Shell.ReadOnly, s.Config.ReadOnly = true, true }
}

// AsRemote presents the test's sandbox as a remote gateway, as a
// --base-url would: its host on the status bar, and production unless
// environment (production, staging, sandbox, or "" for unset) says
// otherwise, with the safeguards that go with it.
func AsRemote(environment string) Option {
	return func(s *Setup) {
		s.Shell.Gateway.Sandbox, s.Shell.Gateway.Local = false, false
		s.Shell.Gateway.Label, s.Shell.Gateway.Environment = "gateway.test", environment
	}
}

// WithProfile names the profile in use on the status bar, and the
// profiles the switcher offers.
func WithProfile(name string, all ...string) Option {
	return func(s *Setup) { s.Shell.Profile, s.Shell.Profiles = name, all }
}

// WithScreen mounts screens, e.g. WithScreen(screentest.Of(card.New)).
func WithScreen(builds ...Build) Option {
	return func(s *Setup) { s.Screens = append(s.Screens, builds...) }
}

// WithSupport mounts the support console; start opens it first, as
// `cardterm support` does.
func WithSupport(build Build, start bool) Option {
	return func(s *Setup) { s.Support, s.StartInSupport = build, start }
}

// WithNoColor draws the app as NO_COLOR does (noColor true), or in colour.
func WithNoColor(noColor bool) Option { return func(s *Setup) { s.Shell.NoColor = noColor } }

// WithCommands gives the app the user's commands on a record.
func WithCommands(commands *recordcommand.File) Option {
	return func(s *Setup) { s.Shell.Commands = commands }
}

// WithViews gives the app the saved views of a store, and saves there.
func WithViews(store savedview.Store) Option {
	return func(s *Setup) {
		s.Shell.Views, _ = store.Load()
		s.Shell.SaveView = store.Save
	}
}

// WithTheme draws the app in a theme, in colour.
func WithTheme(t theme.Theme) Option {
	return func(s *Setup) { s.Shell.Theme, s.Shell.NoColor = t, false }
}

// WithSize sets the first window size (104x30 otherwise: a body of 84x27
// beside the navigation).
func WithSize(w, h int) Option { return func(s *Setup) { s.Width, s.Height = w, h } }

// WithSandbox changes the sandbox's options (faults, alternate shapes).
func WithSandbox(change func(*sandbox.Options)) Option {
	return func(s *Setup) { change(&s.Sandbox) }
}

// WithAltShapes runs the sandbox in its alternate-shapes mode: every
// record the interface leaves "not shown" in other names and nesting.
func WithAltShapes() Option {
	return func(s *Setup) { s.Sandbox.AltShapes = true }
}

// WithConfig changes the client's configuration.
func WithConfig(change func(*apiclient.Config)) Option {
	return func(s *Setup) { change(&s.Config) }
}

// New builds the app with signIn as its sign-in screen and the screens the
// options mount, sized 104x30, and runs Init as the program would.
func New(t testing.TB, signIn Build, opts ...Option) *App {
	t.Helper()
	clock := sandbox.NewManualClock(Epoch)
	setup := Setup{SignIn: signIn, Width: 104, Height: 30, Sandbox: sandbox.Options{Clock: clock},
		Config: apiclient.Config{ClientKey: sandbox.DemoClientKey, ClientID: demoClientID(), SecretKey: sandbox.DemoSecretKey}}
	setup.Shell.Now = clock.Now
	setup.Shell.Gateway = shell.Gateway{Label: "SANDBOX", Sandbox: true, Local: true}
	for _, o := range opts {
		o(&setup)
	}
	setup.Sandbox.Clock = clock
	setup.Sandbox.RecordBodies = true // what a confirmation showed is compared with what was received
	server := sandbox.New(setup.Sandbox)
	var handler http.Handler = server
	if setup.Wrap != nil {
		handler = setup.Wrap(server)
	}
	hs := httptest.NewServer(handler)
	t.Cleanup(hs.Close)
	server.SetBaseURL(hs.URL)

	cfg := setup.Config
	cfg.BaseURL = hs.URL
	if setup.Proxy != nil {
		cfg.BaseURL = setup.Proxy(t, hs.URL)
	}
	cfg.Now = clock.Now
	client := apiclient.New(cfg)
	wiring := setup.Shell
	wiring.Client = client
	wiring.Gateway.ClientKey, wiring.Gateway.US = cfg.ClientKey, cfg.US
	wiring.SignIn, wiring.Support, wiring.StartInSupport = shell.Build(setup.SignIn), shell.Build(setup.Support), setup.StartInSupport
	wiring.Screens = func(deps screenkit.Deps) []ui.Screen {
		screens := make([]ui.Screen, 0, len(setup.Screens))
		for _, build := range setup.Screens {
			screens = append(screens, build(deps))
		}
		return screens
	}
	root, deps := shell.New(wiring)
	app := &App{T: t, Root: root, Deps: deps, Clock: clock, Server: server, Client: client, URL: hs.URL}
	app.Drive(append([]tea.Msg{tea.WindowSizeMsg{Width: setup.Width, Height: setup.Height}}, uitest.Run(root.Init())...)...)
	return app
}

// UI is the root model.
func (a *App) UI() *ui.Root { return a.Root.(*ui.Root) }

// Drive feeds messages and runs the commands they cause.
func (a *App) Drive(msgs ...tea.Msg) {
	a.T.Helper()
	recorder := uitest.Drive(rawRecorder{a.Root, &a.Raw}, msgs...).(rawRecorder)
	a.Root = recorder.Model
}

// Keys presses keys by name ("enter", "f", "ctrl+u").
func (a *App) Keys(names ...string) { a.T.Helper(); a.Drive(uitest.Keys(names...)...) }

// Open opens the screen called id as a user would: its number key, or,
// past the tenth, the navigation pane (tab, down to it, enter). It fails
// when the screen is not mounted.
func (a *App) Open(id ui.ScreenID) {
	a.T.Helper()
	at := a.UI().PositionOf(id)
	switch {
	case at < 0:
		a.T.Fatalf("screen %q is not in the navigation", id)
	case ui.NumberKey(at) != "":
		a.Keys(ui.NumberKey(at))
	default:
		a.Keys(ui.NumberKey(0), "tab")
		for range at {
			a.Keys("down")
		}
		a.Keys("enter")
	}
	if got := a.UI().Active().ID(); got != id {
		a.T.Fatalf("opening %q showed %q", id, got)
	}
}

// Type types text into the focused input.
func (a *App) Type(s string) { a.T.Helper(); a.Drive(uitest.Type(s)...) }

// Fill types values into a form's fields in turn, from the focused one
// (uitest.Fill).
func (a *App) Fill(values ...string) { a.T.Helper(); a.Drive(uitest.Fill(values...)...) }

// Resize changes the window size.
func (a *App) Resize(w, h int) { a.T.Helper(); a.Drive(tea.WindowSizeMsg{Width: w, Height: h}) }

// Screen is the rendered frame as plain text.
func (a *App) Screen() string { return uitest.Plain(a.Root.View()) }

// SignIn types the credentials of a demo user into the sign-in form (which
// must be the sandbox's sign-in screen) and presses enter.
func (a *App) SignIn(username string) {
	a.T.Helper()
	a.focusUsername()
	a.Drive(uitest.Key("ctrl+u"))
	a.Type(username)
	a.Keys("tab", "ctrl+u")
	a.Type("demo-pass")
	a.Keys("enter")
	if !a.UI().SignedIn() {
		a.T.Fatalf("sign-in as %s failed; the screen shows:\n%s", username, a.Screen())
	}
}

// focusUsername moves the sign-in form's focus to the username, drawn
// in a thick box when focused: after a sign-out the form comes back on
// the password, under the last username.
func (a *App) focusUsername() {
	a.T.Helper()
	for range 3 {
		lines := strings.Split(a.Screen(), "\n")
		for i, line := range lines[:len(lines)-1] {
			if strings.TrimSpace(line) == "Username" && strings.Contains(lines[i+1], "┏") {
				return
			}
		}
		a.Keys("tab")
	}
	a.T.Fatalf("the sign-in form never focused the username:\n%s", a.Screen())
}

// SignOut signs out as the user does (S, then y to confirm) and fails
// unless the sign-in screen is back.
func (a *App) SignOut() {
	a.T.Helper()
	a.Keys("S", "y")
	if a.UI().SignedIn() {
		a.T.Fatalf("S then y did not sign out; the screen shows:\n%s", a.Screen())
	}
}

// SignInDirectly signs in through the client and tells the root, for tests
// of screens other than sign-in.
func (a *App) SignInDirectly(username string) {
	a.T.Helper()
	if _, err := a.Client.Login(a.T.Context(), username, "demo-pass"); err != nil {
		a.T.Fatalf("sign-in as %s: %v", username, err)
	}
	a.Drive(ui.SignedInMsg{})
}

var loopbackPort = regexp.MustCompile(`127\.0\.0\.1:\d{4,5}`)

// Golden compares the body (what the screen owns, with any dialog over
// it, in the ASCII colour profile) with its golden file under the
// package's testdata. The navigation, status bar and footer are the
// shell's: FrameGolden covers them, in a few files, so a change of the
// shell rewrites those and not every screen's.
func (a *App) Golden(name string) {
	a.T.Helper()
	a.golden(name, a.UI().BodyView())
}

// ColourGolden compares the whole frame with its golden file, colours
// kept: for the tests of the themes.
func (a *App) ColourGolden(name string) {
	a.T.Helper()
	uitest.Golden(a.T.(*testing.T), name, loopbackPort.ReplaceAllString(a.Root.View().Content, "127.0.0.1:PORT"))
}

// FrameGolden compares the whole frame, shell included, with its golden
// file: for the few tests that cover the shell around a screen.
func (a *App) FrameGolden(name string) {
	a.T.Helper()
	a.golden(name, a.Root.View().Content)
}

// golden compares one drawing with its golden file. The sandbox's random
// port is the one part that varies by run.
func (a *App) golden(name, drawing string) {
	a.T.Helper()
	frame := uitest.ASCII(drawing)
	uitest.Golden(a.T.(*testing.T), name, loopbackPort.ReplaceAllString(frame, "127.0.0.1:PORT"))
}

// WithoutRefresh drops the refresh token, so the client cannot renew the
// session and a 401 ends it.
func WithoutRefresh(s apiclient.Session) apiclient.Session {
	s.RefreshToken = ""
	return s
}
