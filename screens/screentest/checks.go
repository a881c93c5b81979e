package screentest

// What a test checks on the app beyond the frame: the footer, a key
// refused, the notice, the requests the sandbox received, a confirmation
// shown before anything is sent.

import (
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
	"cardterm/ui/uitest"
)

// Footer is the frame's last line: the help of the keys that work now.
func (a *App) Footer() string {
	frame := strings.TrimRight(a.Screen(), "\n")
	return frame[strings.LastIndex(frame, "\n")+1:]
}

// MustRefuse checks a key that cannot work now: the footer leaves out
// footless (the key's entry among them) and still shows offered, and
// pressing key anyway gives a notice that holds reason.
func (a *App) MustRefuse(key, reason string, footless, offered []string) {
	a.T.Helper()
	footer := a.Footer()
	MustNotShow(a.T, footer, footless...)
	MustShow(a.T, footer, offered...)
	a.Keys(key)
	if got := a.Notice(); !strings.Contains(got, reason) {
		a.T.Fatalf("pressing %s: notice %q, want %q", key, got, reason)
	}
}

// Notice is the text of the latest notice (it may belong to another
// screen than the one shown).
func (a *App) Notice() string {
	n, _ := a.UI().CurrentNotice()
	return n.Text
}

// Sent counts the requests the sandbox received for a method and path, so
// a test can tell what was sent (or that nothing was) apart from what the
// screen shows.
func (a *App) Sent(method, path string) int {
	n := 0
	for _, r := range a.Server.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

// MustConfirmBeforeSending checks a confirmation open for a request to
// method and path: nothing is sent while it asks, n sends nothing, and
// again (the keys that ask anew) then y send the request once.
func (a *App) MustConfirmBeforeSending(method, path string, again ...string) {
	a.T.Helper()
	if n := a.Sent(method, path); n != 0 {
		a.T.Fatalf("%d requests to %s %s were sent before the confirmation", n, method, path)
	}
	a.Keys("n")
	if n := a.Sent(method, path); n != 0 {
		a.T.Fatalf("a cancelled confirmation sent %d requests to %s %s", n, method, path)
	}
	a.Keys(append(again, "y")...)
	if n := a.Sent(method, path); n != 1 {
		a.T.Fatalf("a confirmed request sent %d requests to %s %s, want 1", n, method, path)
	}
}

// NewSignedIn builds the app as New does and signs user in through the
// sign-in form: the start most screen tests share.
func NewSignedIn(t testing.TB, signIn Build, user string, opts ...Option) *App {
	t.Helper()
	a := New(t, signIn, opts...)
	a.SignIn(user)
	return a
}

// Preset is the app one package's tests start from: its sign-in screen and
// the options every test there wants (the screens it mounts, a size). A
// test's own options apply after the preset's, so they can change them.
// Open, if set, is the screen NewSignedIn opens once signed in.
type Preset struct {
	SignIn  Build
	Options []Option
	Open    ui.ScreenID
}

// New builds the preset's app with the test's options, as New does.
func (p Preset) New(t testing.TB, opts ...Option) *App {
	t.Helper()
	return New(t, p.SignIn, append(slices.Clone(p.Options), opts...)...)
}

// NewSignedIn builds the preset's app with the test's options, signs user
// in, as NewSignedIn does, and opens the preset's screen.
func (p Preset) NewSignedIn(t testing.TB, user string, opts ...Option) *App {
	t.Helper()
	a := NewSignedIn(t, p.SignIn, user, append(slices.Clone(p.Options), opts...)...)
	if p.Open != "" {
		a.Open(p.Open)
	}
	return a
}

// EscCancels presses esc while held, a request's command the test has not
// run, is in flight for screen; it fails unless esc left none of the
// screen's requests in flight, then runs held so its answer (cancelled)
// arrives as it would.
func (a *App) EscCancels(screen ui.ScreenID, held tea.Cmd) {
	a.T.Helper()
	a.Keys("esc")
	if n := a.Deps.Requests.InFlightFor(screen); n != 0 {
		a.T.Fatalf("esc left %d requests in flight", n)
	}
	a.Drive(uitest.Run(held)...)
}
