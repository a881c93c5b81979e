package cli

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/appdirs"
	"cardterm/sandbox"
	"cardterm/screens"
	"cardterm/screens/screenkit"
	"cardterm/screens/shell"
	"cardterm/screens/support"
	"cardterm/ui"
	"cardterm/ui/accessible"
)

// The app: building the client, the screens and the shell, and running
// it until the user quits or switches profile.

// app is the wired program: the root model and what must be closed after.
type app struct {
	root  tea.Model
	shell *ui.Root // the root, for what it says after the program ends
	close func()
}

// newApp chooses the gateway, builds the client and the screens, and wires
// the root.
func newApp(o options, stdin *os.File, stderr io.Writer) (*app, error) {
	gw, err := chooseGateway(o, stdin, stderr)
	if err != nil {
		return nil, err
	}
	return buildApp(gw, o), nil
}

// buildApp builds the client and the screens on the chosen gateway, and
// wires the root.
func buildApp(gw gateway, o options) *app {
	gw = withInAppEvents(gw)
	gw = withOneHTTPClient(gw)
	shell, console := buildRoot(gw, o)
	// A customer-approved session still open is revoked before the
	// gateway closes; then the clients' idle keep-alive connections are
	// closed from this end, so the gateway's close has none to wait for.
	return &app{root: shell, shell: shell, close: func() {
		console.Close()
		gw.cfg.HTTPClient.CloseIdleConnections()
		gw.close()
	}}
}

// withOneHTTPClient gives every client the app builds on gw one HTTP
// client (a proxy's, when set), whose idle connections the app closes as
// it quits.
func withOneHTTPClient(gw gateway) gateway {
	if gw.cfg.HTTPClient == nil {
		gw.cfg.HTTPClient = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	return gw
}

// runApp runs the app. When the user picks another profile in the app
// (the root quits with SwitchTo set, after signing out), it builds the
// next app on that profile alone (flags and environment were for the
// first one) and runs it, in the same process.
func runApp(o options, std streams) error {
	// A wrong keys file is refused before anything is drawn.
	if err := useKeysFile(); err != nil {
		return err
	}
	commands, err := loadCommandsFile()
	if err != nil {
		return err
	}
	// The accessible mode reads lines and prints plain text: it needs no
	// terminal (a screen reader's console, a pipe).
	if !o.accessible {
		if err := checkAppTerminal(std); err != nil {
			return err
		}
	}
	for {
		o.commands = commands
		run := runDrawn
		if o.accessible {
			run = runAccessible
		}
		a, interrupted, err := run(o, std)
		if a != nil {
			a.close()
		}
		if interrupted {
			return exitStatus(exitInterrupted) // ctrl+c, SIGINT, SIGTERM or SIGHUP
		}
		if err != nil {
			return err
		}
		next, ok := a.shell.SwitchTo()
		if !ok {
			return nil
		}
		cfg, problem := loadConfigOrWarn(std.stderr)
		// The next profile alone, but what was asked for at start that
		// survives a switch (settings_table.go): read-only when on, so a
		// switch never turns on actions the agent had turned off, and the
		// debug log.
		if o, err = o.afterSwitch(next, cfg); err != nil {
			return err
		}
		o.configProblem = problem
	}
}

// runDrawn runs the app as Bubble Tea draws it, in the alternate screen,
// building it while Bubble Tea starts (app_start.go). What can fail on
// the command line's account (the debug log, the base URL) or ask on the
// terminal (a secret key) comes first: nothing may read the terminal
// while Bubble Tea has it, and a typing error is said before anything is
// drawn.
func runDrawn(o options, std streams) (a *app, interrupted bool, err error) {
	build, err := appBuilder(o, std)
	if err != nil {
		return nil, false, err
	}
	starting := newStartingModel(build) // app_start.go: built from Init
	signals := newAppSignals()          // app_signals.go
	program := tea.NewProgram(starting, tea.WithFilter(signals.filter))
	signals.watch(program)
	_, err = program.Run()
	signals.stop()
	a, buildErr := starting.built()
	if err == nil {
		err = buildErr
	}
	return a, errors.Is(err, tea.ErrInterrupted) || signals.wasInterrupted(), err
}

// appBuilder does what must come before the app draws and returns what
// builds the rest: the embedded sandbox and the screens.
func appBuilder(o options, std streams) (func() (*app, error), error) {
	start, err := prepareGateway(o, std.stdin, std.stderr)
	if err != nil {
		return nil, err
	}
	return func() (*app, error) {
		gw, err := start()
		if err != nil {
			return nil, err
		}
		return buildApp(gw, o), nil
	}, nil
}

// runAccessible runs the app in the accessible mode: plain lines out, a
// line at a time in (ui/accessible). SIGINT, SIGTERM and SIGHUP end it
// as ctrl+c does in the drawn app.
func runAccessible(o options, std streams) (a *app, interrupted bool, err error) {
	if a, err = newApp(o, std.stdin, std.stderr); err != nil {
		return nil, false, err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	var in io.Reader = std.stdin
	if std.stdin == nil {
		in = strings.NewReader("")
	}
	err = accessible.Run(ctx, a.shell, in, std.stdout)
	if errors.Is(err, accessible.ErrInterrupted) || ctx.Err() != nil {
		return a, true, nil
	}
	return a, false, err
}

// buildRoot wires the client, the screens and the shell (screens/shell,
// which the tests build the same way).
func buildRoot(gw gateway, o options) (*ui.Root, *support.Screen) {
	var console *support.Screen
	gateway := shell.Gateway{
		Label:       gw.label,
		Sandbox:     gw.sandbox,
		Local:       gw.events.sandbox,
		Loopback:    isLoopbackURL(gw.cfg.BaseURL) && !gw.embedded,
		Environment: o.environment,
		ClientKey:   gw.cfg.ClientKey,
		US:          gw.cfg.US,
	}
	// The user or onboarding asked for is opened by the first console
	// only: one built anew after a customer signed in starts empty.
	startUser, startOnboarding := o.supportUser, o.supportOnboarding
	views, err := viewStore(o).Load()
	if err != nil {
		slog.Warn("saved views not read", "err", err)
	}
	root, _ := shell.New(shell.Config{
		Client:     apiclient.New(gw.cfg),
		Gateway:    gateway,
		ReadOnly:   o.readOnly,
		Profile:    o.profileShown(),
		Profiles:   o.profiles,
		Warning:    o.configProblem,
		Demo:       gw.demo,
		Events:     gw.events.receiver,
		EventsURL:  gw.events.url,
		NoColor:    os.Getenv("NO_COLOR") != "" || o.accessible,
		Presenter:  o.presenter,
		Mouse:      o.mouse,
		Accessible: o.accessible,
		Commands:   o.commands,
		Theme:      themeOf(o.theme),
		Views:      views,
		SaveView:   viewStore(o).Save,
		Alerts: screenkit.Alerts{On: o.alerts, Interval: o.alertInterval,
			Desktop: ui.DesktopNotifyFor(os.Getenv)},
		OrderPaymentMethod: strings.ToUpper(o.orderPaymentMethod),
		HolderDir:          holderDir(o),
		Version:            appVersion(),
		SignIn:             screens.SignIn,
		Screens:            screens.All,
		Support: func(deps screenkit.Deps) ui.Screen {
			console = support.New(deps, support.Options{
				StateFile:        supportStateFile(gw.cfg.ClientKey),
				ActionLog:        supportActionLog(),
				GrantsDir:        supportGrantsDir(o),
				Agent:            o.agent,
				RequireTicket:    o.requireTicket == "true" || o.requireTicket == "" && gateway.Production(),
				Environment:      o.environment,
				User:             startUser,
				Onboarding:       startOnboarding,
				DemoUsers:        supportDemoUsers(gw),
				SandboxSecretKey: gw.demoSecretKey,
				CustomerScreens:  screens.All,
				CasesDir:         supportCasesDir(o.supportCasesDir),
				CaseFile:         o.supportCase,
				RunbooksDir:      supportRunbooksDir(),
				ResponseTimes:    responseTimes(o.responseTimes),
			})
			startUser, startOnboarding = "", ""
			return console
		},
		StartInSupport: o.support,
	})
	return root, console
}

// supportActionLog is the support console's action log in the user's
// state directory.
func supportActionLog() string {
	if dir := filepath.Dir(supportStateFile("")); dir != "." {
		return filepath.Join(dir, "support-actions.jsonl")
	}
	return ""
}

// supportCasesDir is where case files are kept: the folder named, else
// cardterm/cases in the user's data folder (XDG_DATA_HOME or
// ~/.local/share on Linux).
func supportCasesDir(named string) string {
	if named != "" {
		return named
	}
	dir := appdirs.Data()
	return filepath.Join(dir, "cardterm", "cases")
}

// supportRunbooksDir holds the tenant's own runbooks, beside the
// built-in ones: cardterm/runbooks in the user's config folder.
func supportRunbooksDir() string {
	dir := appdirs.Config()
	return filepath.Join(dir, "cardterm", "runbooks")
}

// supportGrantsDir is where the support console records the
// customer-approved sessions open now, so that one a crash left open is
// revoked at the next start; none for the embedded sandbox, whose
// sessions die with the app.
func supportGrantsDir(o options) string {
	if o.baseURL == "" {
		return ""
	}
	if dir := filepath.Dir(supportStateFile("")); dir != "." {
		return filepath.Join(dir, "approved-sessions")
	}
	return ""
}

// supportDemoUsers are the embedded sandbox's demo customers, offered by
// the support console before its first look-up.
func supportDemoUsers(gw gateway) []support.DemoUser {
	if !gw.embedded {
		return nil
	}
	var out []support.DemoUser
	for _, u := range sandbox.DemoUsersFor(gw.cfg.ClientKey) {
		out = append(out, support.DemoUser{Username: u.Username, ID: sandbox.DemoUserID(u.Username), Summary: u.Summary, US: u.Region == "us"})
	}
	return out
}

// supportStateFile is where the support console keeps its last look-ups
// (ids only) for a tenant: the user's state folder as each OS has it
// (XDG_STATE_HOME or ~/.local/state on Linux, Application Support on
// macOS, LocalAppData on Windows), one file per client key.
func supportStateFile(clientKey string) string {
	dir := appdirs.State()
	return filepath.Join(dir, "cardterm", "support-"+fileSafe(clientKey)+".json")
}

// fileSafe keeps the characters a file name can carry.
func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}
