// Package screenkit is what every screen of cardterm is built from: the
// dependencies main hands each screen (Deps), the one way to report a
// failed request, the detail-field layout, badges and the QR renderer.
// Screens live in their own packages beside it and import it; it imports
// no screen.
package screenkit

import (
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/sandbox/webhookreceiver"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
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
	// Production says the gateway's data is real (shell.Gateway): the
	// support console asks for the last 4 characters of the user id
	// before a revoke or a link.
	Production bool
	// Demo lists the sandbox's demo accounts; empty on a real gateway.
	Demo []DemoHint
	// Support says the support console is there: the sign-in screen then
	// offers the key that opens it.
	Support bool
	// Now is the clock used for countdowns and "session expires in".
	Now func() time.Time
	// Events is the in-app webhook listener, started once with the app:
	// the Events screen shows what it receives, and the Webhooks screen
	// hands it every signing key the gateway shows whole. nil when none runs.
	Events *webhookreceiver.Receiver
	// EventsURL is where the in-app listener takes deliveries
	// (http://127.0.0.1:PORT/).
	EventsURL string
	// SandboxGateway says the gateway is a sandbox on this machine: it
	// delivers to loopback receivers such as the in-app listener and sends
	// test events. A real gateway needs public HTTPS webhook URLs.
	// It is known at start for the embedded sandbox; use LocalSandbox,
	// which also counts a loopback gateway that has announced itself.
	SandboxGateway bool
	// LoopbackGateway says the gateway is on this machine (a --base-url of
	// 127.0.0.1): a sandbox once its answers say so, never before.
	LoopbackGateway bool
	// Alerts are the transaction alerts while the app runs (the settings
	// alerts and alert-interval); the zero value is off.
	Alerts Alerts
	// HolderDir is the profile's folder for the card holder's own data:
	// budgets, guard rules and their log, notes (domain/profiledata).
	// "" keeps nothing (a test that does not need it).
	HolderDir string
	// OrderPaymentMethod is the paymentMethod a card order sends (the
	// setting order-payment-method); "" is apiclient.DefaultPaymentMethod.
	OrderPaymentMethod string
	// NumberKeyOf is the number key of a screen of the navigation ("" for
	// none), which the root gives by position: a screen's text names
	// another through ScreenNamed, never with a digit of its own.
	NumberKeyOf func(ui.ScreenID) string
}

// Alerts say whether and how often the app looks for new and declined
// transactions while it runs, and how the terminal shows a desktop
// notification.
type Alerts struct {
	On       bool
	Interval time.Duration
	Desktop  ui.DesktopNotify
}

// ScreenNamed is how a screen's text points at another: "the Account
// screen (1)", with its number key when it has one.
func (d Deps) ScreenNamed(id ui.ScreenID, title string) string {
	if d.NumberKeyOf != nil {
		if k := d.NumberKeyOf(id); k != "" {
			return "the " + title + " screen (" + k + ")"
		}
	}
	return "the " + title + " screen"
}

// Clock is the time now on the screens' clock.
func (d Deps) Clock() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

// Failed reports a request failure the one way the app reports errors. A
// 401 that survived the client's refresh attempt means the session is over,
// so it sends the user to the sign-in screen instead.
func Failed(what string, err error) tea.Cmd {
	if apiclient.IsUnauthorized(err) {
		return func() tea.Msg {
			return ui.SessionExpiredMsg{Reason: "Your session has ended (" + apiclient.ErrorMessage(err) + "). Sign in again to continue."}
		}
	}
	return ui.ReportError(what, err)
}

// ReadFailed reports a failed read the one way (Failed), except an answer
// with one of the statuses the screen shows in its body instead (a 403: the
// gateway does not allow this account; a 404: nothing there yet). No error
// reports nothing.
func ReadFailed(what string, err error, statusesShown ...int) tea.Cmd {
	if err == nil {
		return nil
	}
	for _, status := range statusesShown {
		if apiclient.IsStatus(err, status) {
			return nil
		}
	}
	return Failed(what, err)
}

// RefuseReadOnly is the notice shown when a mutating key is pressed in
// --read-only mode.
func RefuseReadOnly(what string) tea.Cmd {
	return ui.Notify(theme.ToneWarn, "read-only mode: "+what+" is disabled")
}

// Report is the notice for a finished change: the success text, or the
// failure reported the one way (a 401 ends the session).
func Report[T any](res ui.ChangeResult[T]) tea.Cmd {
	if res.Err != nil {
		return Failed(res.Spec.What, res.Err)
	}
	return ui.Notify(theme.ToneOK, res.DoneText())
}

// FormFailed shows a refused submission on the form: a gateway's field
// errors under their fields, anything else under the form. What was typed
// stays. A 401 ends the session as everywhere else.
func FormFailed(form *form.Form, what string, err error) tea.Cmd {
	if apiclient.IsUnauthorized(err) {
		form.SetBusy(false)
		return Failed(what, err)
	}
	var apiErr *apiclient.Error
	if errors.As(err, &apiErr) && len(apiErr.Fields) > 0 {
		return form.SetErrors(apiErr.Message, FieldErrors(apiErr.Fields))
	}
	form.SetProblem(what + ": " + apiclient.ErrorMessage(err))
	return nil
}

// FieldErrors turns the client's field errors (a 422, or a local check)
// into the form's.
func FieldErrors(errs []apiclient.FieldError) []form.FieldError {
	out := make([]form.FieldError, len(errs))
	for i, e := range errs {
		out[i] = form.FieldError{Field: e.Field, Message: e.Message}
	}
	return out
}

// LocalSandbox reports whether the gateway is a sandbox on this machine:
// the embedded one, or a loopback gateway whose answers announced it.
// Nothing is asked to learn it.
func (d Deps) LocalSandbox() bool {
	return d.SandboxGateway || d.LoopbackGateway && d.Client != nil && d.Client.KnownSandbox()
}
