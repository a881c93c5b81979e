package screens_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens"
	"cardterm/screens/screentest"
	"cardterm/ui"
)

// isoTimestamp is a moment as the wire writes it; the app writes moments
// with screenkit.FormatTime.
var isoTimestamp = regexp.MustCompile(`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}`)

// goDuration is a duration as Go prints it ("5m0s", "6471h41m8s").
var goDuration = regexp.MustCompile(`\b\d+h\d+m\d+(\.\d+)?s\b|\b\d+m\d+(\.\d+)?s\b`)

// weiUnit is an amount in wei: the wire's unit, shown only in the inspector.
var weiUnit = regexp.MustCompile(`\d wei\b`)

// wireLabel is a wire name where a label goes: at the start of a detail
// line, a camelCase or snake_case name followed by the gap before its
// value.
var wireLabel = regexp.MustCompile(`^\s*(?:│\s*)?([a-z]+(?:[A-Z][a-z0-9]*)+|[a-z]+(?:_[a-z0-9]+)+)\s{2,}\S`)

// footerEnds are the entries a footer ends with when all its keys fit.
var footerEnds = []string{"? help", "f1 help", "n/esc cancel", "c copy as curl", "?/esc close help", "m/esc close notices", "esc cancel"}

// checkFrame fails on what no frame may show: a footer that ends on a
// separator or is cut without "…", anything beside a dialog's box on its
// rows, and, outside the inspector, a wire timestamp, a Go duration or a
// wire name as a label.
func checkFrame(t *testing.T, app *screentest.App, where string) {
	t.Helper()
	frame := app.Screen()
	lines := strings.Split(strings.TrimRight(frame, "\n"), "\n")
	footer := strings.TrimRight(lines[len(lines)-1], " ")
	whole := false
	for _, end := range footerEnds {
		whole = whole || strings.HasSuffix(footer, end)
	}
	inspector := strings.Contains(footer, "close inspector") || strings.Contains(footer, "i/esc")
	if strings.HasSuffix(footer, "•") || (!whole && !inspector && !strings.Contains(footer, "…")) {
		t.Errorf("%s: the footer is cut: %q", where, footer)
	}
	if app.UI().DialogOpen() || app.UI().ProfilesOpen() {
		checkDialogRows(t, app.UI().BodyView(), where)
	}
	if inspector {
		return
	}
	for _, l := range lines {
		if m := isoTimestamp.FindString(l); m != "" {
			t.Errorf("%s: a wire timestamp %q: %q", where, m, l)
		}
		if weiUnit.MatchString(l) {
			t.Errorf("%s: an amount in wei, the wire's unit: %q", where, l)
		}
		if m := goDuration.FindString(l); m != "" {
			t.Errorf("%s: a Go duration %q: %q", where, m, l)
		}
	}
	for _, l := range strings.Split(ansi.Strip(app.UI().BodyView()), "\n") {
		// A consent's type (termsAndPrivacy) is the data a row shows, not
		// a label.
		if m := wireLabel.FindStringSubmatch(l); m != nil && !slices.Contains(apiclient.ConsentTypes, m[1]) {
			t.Errorf("%s: a wire name as a label %q: %q", where, m[1], l)
		}
	}
}

// checkDialogRows fails when a row of the dialog's box shows anything
// outside the box.
func checkDialogRows(t *testing.T, body, where string) {
	t.Helper()
	rows := strings.Split(ansi.Strip(body), "\n")
	in := false
	for i, row := range rows {
		if strings.Contains(row, "╭") {
			in = true
		}
		if !in {
			continue
		}
		left, right := strings.IndexAny(row, "╭│╰"), strings.LastIndexAny(row, "╮│╯")
		if left < 0 || right < 0 {
			t.Errorf("%s: dialog row %d has no border: %q", where, i, row)
			continue
		}
		if strings.TrimSpace(row[:left]) != "" || strings.TrimSpace(row[right+len("│"):]) != "" {
			t.Errorf("%s: dialog row %d shows the screen beside the box: %q", where, i, row)
		}
		if strings.Contains(row, "╰") {
			return
		}
	}
}

// Every screen, every view its keys open (details, forms, dialogs) and
// the views those open in turn, at 80x24, 120x40 and 200x60, with colour
// and under NO_COLOR: checkFrame on each.
func TestEveryViewAtThreeSizes(t *testing.T) {
	if raceDetector {
		t.Skip("a walk that draws frames: run without -race (go test ./... does)")
	}
	t.Setenv("BROWSER", "true") // a key that opens a link opens nothing
	for _, noColor := range []bool{false, true} {
		for _, size := range sizes {
			app := allScreens(t, screentest.WithSize(size[0], size[1]), screentest.WithDemo(), screentest.WithNoColor(noColor))
			at := fmt.Sprintf("%dx%d no-color=%v", size[0], size[1], noColor)
			checkFrame(t, app, "Sign in at "+at)
			app.Keys("enter")
			if !app.UI().SignedIn() {
				t.Fatalf("enter on the prefilled form did not sign in:\n%s", app.Screen())
			}
			for _, s := range screens.All(app.Deps) {
				id := s.ID()
				app.Open(id)
				checkFrame(t, app, s.Title()+" at "+at)
				for _, k := range screenKeys(app.Front()) {
					walkKey(t, app, s.Title()+" "+k+" at "+at, k, 2)
					backTo(app, id)
				}
			}
		}
	}
}

// walkKey presses k, checks the frame, and, depth times, each key of the
// view it opened (not in a form or a dialog, where keys type or answer).
func walkKey(t *testing.T, app *screentest.App, where, k string, depth int) {
	t.Helper()
	app.Keys(k)
	checkFrame(t, app, where)
	if app.UI().DialogOpen() {
		app.Keys("n")
		return
	}
	if depth == 0 || app.Front().CapturesKeys() {
		return
	}
	for _, next := range screenKeys(app.Front()) {
		before := app.Screen()
		walkKey(t, app, where+" "+next, next, depth-1)
		if app.Front().CapturesKeys() || app.Screen() != before {
			app.Keys("esc")
		}
	}
}

// backTo leaves whatever view or form is open and opens the screen id.
func backTo(app *screentest.App, id ui.ScreenID) {
	for range 3 {
		if app.UI().DialogOpen() {
			app.Keys("n")
		}
		if app.Front().CapturesKeys() || strings.Contains(app.Screen(), "esc back") {
			app.Keys("esc")
		}
	}
	app.Open(id)
}

// The help (?) lists, for every screen and every view its keys open,
// each key the footer names, and each key once.
func TestHelpListsEveryFooterKeyOnce(t *testing.T) {
	t.Setenv("BROWSER", "true")
	app := allScreens(t, screentest.WithSize(200, 60), screentest.WithDemo())
	app.Keys("enter")
	check := func(where string) {
		km := app.Front().KeyMap()
		full := map[string]int{}
		for _, g := range km.FullHelp() {
			for _, b := range g {
				if b.Enabled() && b.Help().Key != "" {
					full[b.Help().Key+" "+b.Help().Desc]++
				}
			}
		}
		for entry, n := range full {
			if n > 1 {
				t.Errorf("%s: the help lists %q %d times", where, entry, n)
			}
		}
		for _, b := range km.ShortHelp() {
			if b.Enabled() && b.Help().Key != "" && full[b.Help().Key+" "+b.Help().Desc] == 0 {
				t.Errorf("%s: the footer names %q but the help does not", where, b.Help().Key+" "+b.Help().Desc)
			}
		}
	}
	for _, s := range screens.All(app.Deps) {
		app.Open(s.ID())
		check(s.Title())
		for _, k := range screenKeys(app.Front()) {
			app.Keys(k)
			if !app.UI().DialogOpen() {
				check(s.Title() + " " + k)
			}
			backTo(app, s.ID())
		}
	}
}

// The same walk against a gateway answering in other shapes (the
// sandbox's alternate-shapes mode), at 120x40: its fields show under
// labels in words and its dates written the app's way.
func TestEveryViewInAnotherShape(t *testing.T) {
	t.Setenv("BROWSER", "true")
	app := allScreens(t, screentest.WithSize(120, 40), screentest.WithDemo(), screentest.WithAltShapes())
	app.Keys("enter")
	for _, s := range screens.All(app.Deps) {
		id := s.ID()
		app.Open(id)
		checkFrame(t, app, s.Title()+" in another shape")
		for _, k := range screenKeys(app.Front()) {
			walkKey(t, app, s.Title()+" "+k+" in another shape", k, 1)
			backTo(app, id)
		}
	}
}
