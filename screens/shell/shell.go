// Package shell wires the app: the screens' dependencies, the screens, the
// support console and the root model around them. main and the test
// harness (screentest) both build the app here, so the tests run the
// production, environment, profile and client-key handling users get. It
// imports no screen: the caller names the screens to mount.
package shell

import (
	"cardterm/domain/recordcommand"
	"cardterm/domain/savedview"

	"time"

	"cardterm/apiclient"
	"cardterm/sandbox/webhookreceiver"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// Build makes one screen from the dependencies every screen shares.
type Build func(screenkit.Deps) ui.Screen

// Gateway says what the app talks to, for the status bar and the
// safeguards.
type Gateway struct {
	// Label names it on the status bar: "SANDBOX" or the host.
	Label string
	// Sandbox is the embedded sandbox (or a test's): never production.
	Sandbox bool
	// Local is a sandbox on this machine (the embedded one, or a
	// loopback --base-url): it delivers webhooks to loopback receivers and
	// sends test events.
	Local bool
	// Loopback is a --base-url on this machine, not known to be a sandbox
	// at start: the screens learn it from the client (Deps.LocalSandbox).
	Loopback bool
	// Environment is what the settings say the gateway is: production,
	// staging, sandbox, or "" (unset).
	Environment string
	// ClientKey names the tenant on the status bar.
	ClientKey string
	US        bool
}

// Production reports a gateway whose data is real: one the settings call
// production, or any gateway but a sandbox when they name none (the safe
// assumption for an agent's keys). Naming production on the sandbox turns
// the safeguards on there too, for training.
func (g Gateway) Production() bool {
	return g.Environment == "production" || g.Environment == "" && !g.Sandbox
}

// Config is everything the app is built from.
type Config struct {
	Client  *apiclient.Client
	Gateway Gateway
	// ReadOnly hides and refuses every action that changes anything.
	ReadOnly bool
	// Profile is the profile the status bar names ("" for none: the
	// settings do not come from one); Profiles lists them all, for the
	// switcher.
	Profile  string
	Profiles []string
	// Warning is a problem found before start, shown on the first screen.
	Warning string
	// Demo lists the sandbox's demo accounts for the sign-in screen.
	Demo []screenkit.DemoHint
	// Events is the in-app webhook listener and EventsURL where it
	// listens; nil when none runs.
	Events    *webhookreceiver.Receiver
	EventsURL string
	NoColor   bool
	// Presenter shows the last keys pressed; Mouse lets the app take
	// clicks and the wheel.
	Presenter, Mouse bool
	// Accessible lays the app out for the accessible mode (ui/accessible):
	// no navigation pane, the body the whole width.
	Accessible bool
	// Theme is the colours chosen (theme.Auto when zero).
	Theme theme.Theme
	// Commands are the user's commands on a record (commands.yaml).
	Commands *recordcommand.File
	// Views are the profile's saved views; SaveView keeps one.
	Views    []savedview.View
	SaveView func(savedview.View) error
	// Alerts are the transaction alerts; OrderPaymentMethod the card
	// orders' payment method (screenkit.Deps).
	Alerts             screenkit.Alerts
	OrderPaymentMethod string
	// HolderDir is the profile's folder for the holder's own data
	// (budgets, guard rules, notes: domain/profiledata).
	HolderDir string
	Now       func() time.Time
	Version   string

	SignIn Build
	// Screens builds the navigation, in its order (screens.All): at start,
	// and again on sign-out, an expired session and the end of a
	// customer-approved session (ui.RootOptions.BuildScreens).
	Screens func(screenkit.Deps) []ui.Screen
	// Support builds the support console (at start, and anew when a
	// customer signs in on this terminal); nil leaves it out.
	Support        Build
	StartInSupport bool
}

// New builds the app: the root model to run, and the dependencies its
// screens were given (tests read the request registry and the client
// from them).
func New(cfg Config) (*ui.Root, screenkit.Deps) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	styles := stylesFor(cfg)
	deps := screenkit.Deps{
		Client:          cfg.Client,
		Requests:        ui.NewRequests(),
		Styles:          &styles,
		ReadOnly:        cfg.ReadOnly,
		Production:      cfg.Gateway.Production(),
		Demo:            cfg.Demo,
		Support:         cfg.Support != nil,
		Now:             cfg.Now,
		Events:          cfg.Events,
		EventsURL:       cfg.EventsURL,
		SandboxGateway:  cfg.Gateway.Local,
		LoopbackGateway: cfg.Gateway.Loopback,
		Alerts:          cfg.Alerts,
		HolderDir:       cfg.HolderDir,

		OrderPaymentMethod: cfg.OrderPaymentMethod,
	}
	opts := ui.RootOptions{
		Styles:         &styles,
		NoColor:        cfg.NoColor,
		Requests:       deps.Requests,
		StartInSupport: cfg.StartInSupport,
		// The console ends an approved session with Client.Revoke.
		EndApprovedRequest: apiclient.RevokeCall().Lines(),
		SignOutRequest:     func() []string { return cfg.Client.SignOutCall().Lines() },
		Gateway:            cfg.Gateway.Label,
		Sandbox:            cfg.Gateway.Sandbox,
		Announced:          cfg.Client.KnownSandbox,
		ClientKey:          cfg.Gateway.ClientKey,
		Production:         deps.Production,
		Environment:        cfg.Gateway.Environment,
		US:                 cfg.Gateway.US,
		ReadOnly:           cfg.ReadOnly,
		Session: func() (string, time.Time, bool) {
			s := cfg.Client.Session()
			return s.Username, s.ExpiresAt, s.Valid()
		},
		SandboxShift: cfg.Client.SandboxClockShift,
		Now:          cfg.Now,
		Version:      cfg.Version,
		Profile:      cfg.Profile,
		Profiles:     cfg.Profiles,
		Warning:      cfg.Warning,
		Presenter:    cfg.Presenter,
		Mouse:        cfg.Mouse,
		Accessible:   cfg.Accessible,
		CurlOf:       curlOf(cfg.Client),
		Commands:     cfg.Commands,
		Views:        cfg.Views,
		SaveView:     cfg.SaveView,
	}
	// The screens name each other's number keys, which the root gives
	// by position once it is built.
	var root *ui.Root
	deps.NumberKeyOf = func(id ui.ScreenID) string {
		if root == nil {
			return ""
		}
		return root.NumberKeyOf(id)
	}
	if cfg.SignIn != nil {
		opts.SignIn = cfg.SignIn(deps)
	}
	if cfg.Screens != nil {
		// Built at start and anew whenever the user may change, so the
		// next user's screens never held the last one's data.
		opts.BuildScreens = func() []ui.Screen { return cfg.Screens(deps) }
	}
	if cfg.Support != nil {
		opts.BuildSupport = func() ui.Screen { return cfg.Support(deps) }
	}
	root = ui.NewRoot(opts)
	return root, deps
}

// stylesFor is the app's styles: the theme chosen, colour or none, and in
// the accessible mode frames that are read out, so nothing is cut.
func stylesFor(cfg Config) theme.Styles {
	styles := theme.NewWith(cfg.Theme, true, cfg.NoColor)
	styles.WholeText = cfg.Accessible
	return styles
}
