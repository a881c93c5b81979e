// Package screens holds one file per screen of cardterm. Each screen
// implements ui.Screen, loads its data through apiclient in commands and
// renders with the shared theme.
package screens

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// DemoHint is a demo account shown on the sign-in screen when the app runs
// on the sandbox gateway, so partners can sign in without a manual.
type DemoHint struct {
	Username, Password, Summary string
}

// Deps is what every screen needs; main builds it once and passes it to
// each screen constructor.
type Deps struct {
	Client   *apiclient.Client
	Requests *ui.Requests
	Styles   *theme.Styles
	// ReadOnly hides and refuses every mutating action (support agents).
	ReadOnly bool
	// Demo lists the sandbox's demo accounts; empty on a real gateway.
	Demo []DemoHint
	// Now is the clock used for countdowns and "session expires in".
	Now func() time.Time
}

func (d Deps) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// failed reports a request failure the one way the app reports errors. A
// 401 that survived the client's refresh attempt means the session is over,
// so it sends the user to the sign-in screen instead.
func failed(what string, err error) tea.Cmd {
	if apiclient.IsUnauthorized(err) {
		return func() tea.Msg {
			return ui.SessionExpiredMsg{Reason: "Your session has ended (" + apiclient.ErrorMessage(err) + "). Sign in again to continue."}
		}
	}
	return ui.ReportError(what, err)
}

// refuseReadOnly is the notice shown when a mutating key is pressed in
// --read-only mode.
func refuseReadOnly(what string) tea.Cmd {
	return ui.Notify(theme.ToneWarn, "read-only mode: "+what+" is disabled")
}
