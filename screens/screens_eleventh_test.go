package screens_test

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/screens"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui"
)

// reportsScreen is an eleventh screen, added in test code the way the
// recipe in ARCHITECTURE.md adds one: a package of its own would hold the
// same.
type reportsScreen struct{ screenkit.Base }

const reportsID ui.ScreenID = "reports"

func newReports(deps screenkit.Deps) *reportsScreen {
	return &reportsScreen{screenkit.NewBase(deps, reportsID, "Reports")}
}

func (s *reportsScreen) Enter() tea.Cmd                      { return nil }
func (s *reportsScreen) Update(tea.Msg) (ui.Screen, tea.Cmd) { return s, nil }
func (s *reportsScreen) SetSize(width, height int)           { s.Width, s.Height = width, height }
func (s *reportsScreen) View() string                        { return "Monthly reports body" }
func (s *reportsScreen) KeyMap() help.KeyMap                 { return reportsKeys{} }
func (s *reportsScreen) CapturesKeys() bool                  { return false }

// reportsKeys is the eleventh screen's key map: it has no keys of its own.
type reportsKeys struct{}

func (reportsKeys) ShortHelp() []key.Binding  { return nil }
func (reportsKeys) FullHelp() [][]key.Binding { return nil }

// A screen added after the app's own (the eleventh today): the number
// keys 1-9 and 0 still open the first ten, each its own; no key that
// another screen owns opens it; it is reached from the navigation, and
// the help lists it with how to get there.
func TestAnEleventhScreenTakesNoOtherScreensKey(t *testing.T) {
	builds := append(screentest.EachOf(screens.All), screentest.Of(newReports))
	app := screentest.New(t, screens.SignIn, screentest.WithScreen(builds...), screentest.WithSize(140, 45))
	app.SignIn("alice@demo.test")

	all := screens.All(app.Deps)
	if len(all) < 10 {
		t.Fatalf("the test expects at least ten screens of the app's own, found %d", len(all))
	}
	for i, s := range all[:10] {
		app.Keys(ui.NumberKey(i))
		if got := app.UI().Active().ID(); got != s.ID() {
			t.Fatalf("key %s opened %q, want %q", ui.NumberKey(i), got, s.ID())
		}
	}
	if k := app.UI().NumberKeyOf(reportsID); k != "" {
		t.Fatalf("the eleventh screen took the number key %q", k)
	}
	for _, k := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"} {
		app.Keys(k)
		if app.UI().Active().ID() == reportsID {
			t.Fatalf("key %s opened the eleventh screen", k)
		}
	}
	screentest.MustShow(t, app.Screen(), "· Reports")

	// Reached from the navigation: tab to it, down to the last entry, enter.
	app.Keys("1", "tab")
	for range len(all) {
		app.Keys("down")
	}
	app.Keys("enter")
	if got := app.UI().Active().ID(); got != reportsID {
		t.Fatalf("the navigation opened %q, not the eleventh screen", got)
	}
	screentest.MustShow(t, app.Screen(), "Monthly reports body")

	// The help lists every screen with the way to open it.
	app.Keys("?")
	help := app.Screen()
	screentest.MustShow(t, help, "Screens", "1 Account", "0 Events", "tab ↓ enter Reports")
	if strings.Count(help, "Reports") < 2 { // the navigation's entry and the help's
		t.Fatalf("the help does not list the eleventh screen:\n%s", help)
	}
}
