package ui

import (
	"time"

	"cardterm/domain/recordcommand"
	"cardterm/domain/savedview"
	"cardterm/theme"
)

// RootOptions wires the root model: the shared styles and request registry,
// the screens, and what the status bar shows.
type RootOptions struct {
	Styles   *theme.Styles // rebuilt in place on tea.BackgroundColorMsg
	NoColor  bool
	Requests *Requests
	SignIn   Screen // shown full-body when signed out
	// Support is the support console, shown full-body instead of the
	// sign-in screen when asked for (OpenSupportMsg): it needs no
	// customer's sign-in. Nil leaves it out.
	Support Screen
	// BuildSupport, when set, builds the support console (in place of
	// Support) at start and again when a customer signs in on this
	// terminal, so the agent's case is not theirs to see.
	BuildSupport func() Screen
	// StartInSupport opens the support console first.
	StartInSupport bool
	// EndApprovedRequest is the request that ends a customer-approved
	// session (the OAuth revoke, from the client's declaration), shown by
	// the confirmation S opens during one.
	EndApprovedRequest []string
	// SignOutRequest is the request S's sign-out will send (the logout,
	// or the revoke of an OAuth session), asked when the confirmation
	// opens; nil shows none.
	SignOutRequest func() []string
	// Screens are the navigation, in its order: the first ten get the
	// number keys 1-9 and 0, the rest are reached through the navigation.
	Screens []Screen
	// BuildScreens, when set, builds the navigation's screens (in place of
	// Screens) at start and again whenever the user may change: sign-out,
	// an expired session, the end of a customer-approved session
	// (root_rebuild.go). The shell always sets it; a screen then never
	// has to forget a user, since the next one gets a new screen.
	BuildScreens func() []Screen
	Gateway      string // "SANDBOX" or the host
	Sandbox      bool
	// Announced, when set, says whether the gateway's answers announced
	// the cardterm sandbox (no IO): with no environment named the bar then
	// says SANDBOX where it said PRODUCTION. The screens' safeguards keep
	// to Production.
	Announced func() bool
	// ClientKey names the tenant (the public client key) on the status
	// bar, so an agent always sees whose data this is.
	ClientKey string
	// Production marks a production gateway: the bar says PRODUCTION in
	// the danger tone (reversed under NO_COLOR). Environment names any
	// other ("staging").
	Production  bool
	Environment string
	US          bool
	ReadOnly    bool
	// Session peeks at the session without IO, for the status bar.
	Session func() (user string, expiresAt time.Time, ok bool)
	// SandboxShift is how far the sandbox's clock was moved from ours
	// (ok false when it was not), for the status bar; nil = never.
	SandboxShift func() (shift time.Duration, ok bool)
	Now          func() time.Time
	Version      string
	// Profile is the name of the profile in use (on the status bar);
	// Profiles lists every profile, for the switcher.
	Profile  string
	Profiles []string
	// Warning is a problem found before start (a malformed config file),
	// shown as a warning notice on the first screen.
	Warning string
	// Presenter shows the last keys pressed in a corner (ui/presenter.go);
	// f2 hides or shows them.
	Presenter bool
	// CurlOf writes a request as a curl command, for copy as curl in a
	// confirmation and the inspector (ui/curl.go); nil offers none.
	CurlOf CurlOf
	// Mouse asks the terminal for clicks and the wheel (ui/root_mouse.go).
	Mouse bool
	// Accessible is the accessible mode's layout (ui/accessible): no
	// navigation pane, so the screen's body has the whole width.
	Accessible bool
	// Commands are the user's commands on a record (commands.yaml), run
	// with ! on a screen's selected record (ui/record_command.go).
	Commands *recordcommand.File
	// Views are the profile's saved views at start; SaveView keeps one
	// (run in a tea.Cmd: it writes the state file).
	Views    []savedview.View
	SaveView func(savedview.View) error
}
