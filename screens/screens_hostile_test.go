package screens_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox"
	"cardterm/sandbox/hostile"
	"cardterm/screens"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/support"
	"cardterm/ui"
)

// hostileCheck fails where the app's frame (what it hands the terminal,
// colour and all), the notice log or a desktop notification carries any
// sequence of hostile.Payload: the gateway's text is drawn only through
// sanitize. (Desktop notifications: screens/transactions'
// TestAlertsOfAHostileGatewayAreClean.)
type hostileCheck struct {
	t    *testing.T
	app  *screentest.App
	seen map[string]bool // a leak is told once, where it is first seen
	// answer is the key a confirmation gets: y walks on into what the
	// confirmed request answers.
	answer string
}

func (c *hostileCheck) frame(where string) {
	c.t.Helper()
	c.report(where, "frame", c.app.Root.View().Content)
}

func (c *hostileCheck) report(where, what, text string) {
	c.t.Helper()
	leaks := hostile.FrameLeaks(text)
	if len(leaks) == 0 {
		return
	}
	key := what + " " + strings.Join(leaks, ",") + " " + strings.SplitN(where, " ", 2)[0]
	if c.seen[key] {
		return
	}
	c.seen[key] = true
	c.t.Errorf("%s: %s reached the %s:\n%s", where, strings.Join(leaks, ", "), what, c.app.Screen())
}

// walk presses k, checks the frame and the inspector over it, and, depth
// times, each key of the view it opened, as walkKey does.
func (c *hostileCheck) walk(where, k string, depth int) {
	c.t.Helper()
	c.app.Keys(k)
	c.frame(where)
	if c.app.UI().DialogOpen() {
		// Yes: what the confirmed request answers is drawn too.
		c.app.Keys(c.answer)
		c.frame(where + " " + c.answer)
		if c.app.UI().DialogOpen() {
			c.app.Keys("n")
		}
		return
	}
	if c.app.Front().CapturesKeys() {
		return
	}
	c.inspect(where)
	if depth == 0 {
		return
	}
	for _, next := range screenKeys(c.app.Front()) {
		if next == "S" {
			continue // sign out
		}
		before := c.app.Screen()
		c.walk(where+" "+next, next, depth-1)
		if c.app.Front().CapturesKeys() || c.app.Screen() != before {
			c.app.Keys("esc")
		}
	}
}

// inspect opens the inspector (i) over the view, checks it and closes it.
func (c *hostileCheck) inspect(where string) {
	c.t.Helper()
	before := c.app.Screen()
	c.app.Keys("i")
	if c.app.Screen() != before {
		c.frame(where + " i")
		c.app.Keys("esc")
	}
}

// Every screen, every view and detail its keys open, the inspector over
// each, and the notice log, against a gateway that
// adds escape sequences (OSC 0/2/8/52, DCS, APC, colour, C1, a bidi
// override) to every string and map key of every answer: none of them
// reaches the terminal. With parseable answers (amounts and dates left
// alone) the gateway's text reaches the screens' tables and details;
// without, their errors.
func TestHostileGatewayReachesNoScreen(t *testing.T) {
	if raceDetector {
		t.Skip("a walk that draws frames: run without -race (go test ./... does)")
	}
	t.Setenv("BROWSER", "true")
	for _, keepParseable := range []bool{true, false} {
		t.Run(fmt.Sprintf("parseable=%v", keepParseable), func(t *testing.T) {
			app := allScreens(t, screentest.WithSize(120, 40), screentest.WithDemo(),
				screentest.WithHostileGateway(keepParseable), func(s *screentest.Setup) {
					s.Shell.Alerts = screenkit.Alerts{On: true, Desktop: ui.DesktopOSC777}
				})
			check := &hostileCheck{t: t, app: app, seen: map[string]bool{}, answer: "y"}
			check.frame("Sign in")
			app.Keys("enter")
			if !app.UI().SignedIn() {
				t.Fatalf("enter on the prefilled form did not sign in:\n%s", app.Screen())
			}
			for _, s := range screens.All(app.Deps) {
				id := s.ID()
				app.Open(id)
				check.frame(s.Title())
				check.inspect(s.Title())
				for _, k := range screenKeys(app.Front()) {
					if k == "S" {
						continue
					}
					check.walk(s.Title()+" "+k, k, 2)
					backTo(app, id)
				}
			}
			app.Keys("m")
			check.frame("the notice log")
		})
	}
}

// The support console, against the same gateway: a user looked up by id,
// then every view its keys open and the inspector over each.
func TestHostileGatewayReachesNoSupportConsole(t *testing.T) {
	for _, keepParseable := range []bool{true, false} {
		t.Run(fmt.Sprintf("parseable=%v", keepParseable), func(t *testing.T) {
			console := func(d screenkit.Deps) ui.Screen {
				return support.New(d, support.Options{ExportDir: t.TempDir(), StateFile: filepath.Join(t.TempDir(), "lookups.json")})
			}
			app := allScreens(t, screentest.WithSupport(console, true), screentest.WithSize(120, 40),
				screentest.WithHostileGateway(keepParseable))
			check := &hostileCheck{t: t, app: app, seen: map[string]bool{}, answer: "y"}
			check.frame("Support console")
			app.Keys("u")
			app.Type(sandbox.DemoUserID("alice@demo.test"))
			app.Keys("enter")
			check.frame("Support console, alice looked up")
			check.inspect("Support console")
			for _, k := range screenKeys(app.Front()) {
				if k == "S" || k == "u" {
					continue
				}
				check.walk("Support console "+k, k, 2)
				for range 3 {
					if app.UI().DialogOpen() {
						app.Keys("n")
					}
					if _, open := app.UI().TopLayer(); open || app.Front().CapturesKeys() {
						app.Keys("esc")
					}
				}
			}
		})
	}
}
