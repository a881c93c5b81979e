package screens_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"cardterm/screens"
	"cardterm/screens/screentest"
)

// sizes are the terminal sizes every screen is checked at: the smallest
// usual terminal, a common one, and a large one.
var sizes = [][2]int{{80, 24}, {120, 40}, {200, 60}}

// fitsItsBody fails when the active screen draws a line wider, or more
// lines, than the body it was given: the frame would then clip a value
// with no ellipsis.
func fitsItsBody(t *testing.T, app *screentest.App, what string) {
	t.Helper()
	w, h := app.UI().BodySize()
	view := app.UI().Active().View()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Errorf("%s: %d lines in a body of %d:\n%s", what, len(lines), h, ansi.Strip(view))
	}
	for _, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("%s: a line of %d cells in a body %d wide would be clipped without an ellipsis: %q", what, lw, w, ansi.Strip(l))
		}
	}
}

// Every screen, the sign-in screen included, at 80x24, 120x40 and 200x60:
// a golden file of each body (reviewed when it changes), and no line that
// the frame would have to clip. The whole frame (navigation, status bar,
// footer) is kept for the sign-in and Account screens only: a change of
// the navigation rewrites those few files, not every screen's.
func TestEveryScreenAtThreeSizes(t *testing.T) {
	for _, size := range sizes {
		app := allScreens(t, screentest.WithSize(size[0], size[1]), screentest.WithDemo())
		name := func(screen string) string {
			return fmt.Sprintf("%s-%dx%d", strings.ToLower(strings.ReplaceAll(screen, " ", "-")), size[0], size[1])
		}
		fitsItsBody(t, app, fmt.Sprintf("Sign in at %dx%d", size[0], size[1]))
		app.Golden(name("signin"))
		app.FrameGolden(name("frame-signin"))
		app.Keys("enter") // the form comes filled with alice, the first demo account
		if !app.UI().SignedIn() {
			t.Fatalf("enter on the prefilled form did not sign in:\n%s", app.Screen())
		}
		for i, s := range screens.All(app.Deps) {
			app.Open(s.ID())
			fitsItsBody(t, app, fmt.Sprintf("%s at %dx%d", s.Title(), size[0], size[1]))
			app.Golden(name(s.Title()))
			if i == 0 {
				app.FrameGolden(name("frame-" + s.Title()))
			}
		}
	}
}
