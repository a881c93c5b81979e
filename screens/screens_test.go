package screens_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"

	"cardterm/screens"
	"cardterm/screens/screentest"
)

func TestMain(m *testing.M) { screentest.Main(m) }

// allScreens mounts every screen of the navigation, as main does.
var allScreens = screentest.Preset{SignIn: screens.SignIn,
	Options: []screentest.Option{screentest.WithScreen(screentest.EachOf(screens.All)...), screentest.WithSize(140, 45)}}.New

var request = regexp.MustCompile(`^(GET|POST|PUT|PATCH|DELETE) /`)

// screenKeys is every enabled single-key binding a screen offers now, but
// the ones that only move, filter or leave.
func screenKeys(s screentest.Front) []string {
	var out []string
	for _, group := range s.KeyMap().FullHelp() {
		for _, b := range group {
			if !b.Enabled() {
				continue
			}
			for _, k := range b.Keys() {
				switch k {
				case "up", "down", "j", "k", "g", "G", "home", "end", "pgup", "pgdown", "/", "esc", "space", "r", "y", "o", "?", "q":
					continue
				}
				if !slices.Contains(out, k) {
					out = append(out, k)
				}
			}
		}
	}
	return out
}

// mutations counts the requests that change something at the gateway. A
// POST to .../token only issues a single-use link (set-PIN page, PIN
// image): nothing changes until the user acts on that page.
func mutations(app *screentest.App) int {
	n := 0
	for _, r := range app.Server.Requests() {
		if r.Method != "GET" && !strings.HasSuffix(r.Path, "/token") {
			n++
		}
	}
	return n
}

// isChooser reports a list that takes the keys to pick from (a currency
// picker), not a form with fields.
func isChooser(km interface{ FullHelp() [][]key.Binding }) bool {
	for _, g := range km.FullHelp() {
		for _, b := range g {
			if b.Enabled() && b.Help().Key == "↑/↓" {
				return true
			}
		}
	}
	return false
}

// Every key of every screen either opens a confirmation that shows the
// request it will send, opens a form that submits with ctrl+s and leaves
// with esc, or changes nothing at the gateway: no change is sent without
// being confirmed.
func TestEveryChangeConfirmsAndEveryFormSubmitsTheSameWay(t *testing.T) {
	app := allScreens(t)
	app.SignIn("alice@demo.test")
	for _, s := range screens.All(app.Deps) {
		id := s.ID()
		t.Run(s.Title(), func(t *testing.T) {
			app.Open(id)
			active := app.UI().Active()
			for _, k := range screenKeys(active) {
				before := mutations(app)
				app.Keys(k)
				if spec, open := app.UI().Dialog(); open {
					if len(spec.Request) == 0 || !request.MatchString(spec.Request[0]) {
						t.Errorf("%s: key %s asks %q without showing the request", s.Title(), k, spec.Title)
					}
					app.Keys("n")
				} else if cur := app.Front(); cur.CapturesKeys() && !isChooser(cur.KeyMap()) {
					if !hasKey(cur.KeyMap(), "ctrl+s") || !hasKey(cur.KeyMap(), "esc") {
						t.Errorf("%s: key %s opens a form without ctrl+s and esc: %s", s.Title(), k, helpKeys(cur.KeyMap()))
					}
					app.Keys("esc")
				}
				if after := mutations(app); after != before {
					t.Errorf("%s: key %s sent a change without confirmation", s.Title(), k)
				}
				// Back to the screen's own view for the next key.
				for range 3 {
					if app.Front().CapturesKeys() || strings.Contains(app.Screen(), "esc back") {
						app.Keys("esc")
					}
				}
				app.Open(id)
			}
		})
	}
}

func hasKey(km interface{ FullHelp() [][]key.Binding }, want string) bool {
	for _, g := range km.FullHelp() {
		for _, b := range g {
			if b.Enabled() && slices.Contains(b.Keys(), want) {
				return true
			}
		}
	}
	return false
}

func helpKeys(km interface{ FullHelp() [][]key.Binding }) string {
	var out []string
	for _, g := range km.FullHelp() {
		for _, b := range g {
			if b.Enabled() {
				out = append(out, b.Help().Key)
			}
		}
	}
	return strings.Join(out, " ")
}

// endCutID is an id, address or hash that lost its end: hex, digits and
// dashes, then the ellipsis, then nothing of it. Shortened in the middle,
// an id keeps its tail after the ellipsis.
var endCutID = regexp.MustCompile(`(^|[\s│(])(0x)?[0-9a-fA-F-]{8,}…([\s│)]|$)`)

// Every screen at 80x24, 120x40 and 200x60: no id drawn loses its end (the
// one truncation rule shortens ids in the middle), and the frame is
// exactly the terminal's size.
func TestNoScreenCutsAnIDAtItsEnd(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		app := allScreens(t, screentest.WithSize(size[0], size[1]))
		app.SignIn("alice@demo.test")
		for _, s := range screens.All(app.Deps) {
			app.Open(s.ID())
			frame := app.Screen()
			lines := strings.Split(strings.TrimRight(frame, "\n"), "\n")
			if len(lines) != size[1] {
				t.Errorf("%s at %dx%d: %d lines", s.Title(), size[0], size[1], len(lines))
			}
			for _, l := range lines {
				if m := endCutID.FindString(l); m != "" {
					t.Errorf("%s at %dx%d cuts an id at its end: %q in\n%s", s.Title(), size[0], size[1], m, frame)
				}
			}
		}
	}
}
