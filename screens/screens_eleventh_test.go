package screens_test

import (
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/screens"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// eleventhScreen is an eleventh screen, added in test code the way the
// recipe in ARCHITECTURE.md adds one: a package of its own would hold the
// same.
type eleventhScreen struct{ screenkit.Base }

const eleventhID ui.ScreenID = "test-eleventh"

func newEleventh(deps screenkit.Deps) *eleventhScreen {
	return &eleventhScreen{screenkit.NewBase(deps, eleventhID, "Eleventh")}
}

func (s *eleventhScreen) Enter() tea.Cmd                      { return nil }
func (s *eleventhScreen) Update(tea.Msg) (ui.Screen, tea.Cmd) { return s, nil }
func (s *eleventhScreen) SetSize(width, height int)           { s.Width, s.Height = width, height }
func (s *eleventhScreen) View() string                        { return "The eleventh screen" }
func (s *eleventhScreen) KeyMap() help.KeyMap                 { return eleventhKeys{} }
func (s *eleventhScreen) CapturesKeys() bool                  { return false }

// eleventhKeys is the eleventh screen's key map: it has no keys of its own.
type eleventhKeys struct{}

func (eleventhKeys) ShortHelp() []key.Binding  { return nil }
func (eleventhKeys) FullHelp() [][]key.Binding { return nil }

// A screen added after the app's own (the eleventh today): the number
// keys 1-9 and 0 still open the first ten, each its own; no key that
// another screen owns opens it; it is reached from the navigation, and
// the help lists it with how to get there.
func TestAnEleventhScreenTakesNoOtherScreensKey(t *testing.T) {
	builds := append(screentest.EachOf(screens.All), screentest.Of(newEleventh))
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
	if k := app.UI().NumberKeyOf(eleventhID); k != "" {
		t.Fatalf("the eleventh screen took the number key %q", k)
	}
	for _, k := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "0"} {
		app.Keys(k)
		if app.UI().Active().ID() == eleventhID {
			t.Fatalf("key %s opened the eleventh screen", k)
		}
	}
	app.MustShow(t, "· Eleventh")

	// Reached from the navigation: tab to it, down to the last entry, enter.
	app.Keys("1", "tab")
	for range len(all) {
		app.Keys("down")
	}
	app.Keys("enter")
	if got := app.UI().Active().ID(); got != eleventhID {
		t.Fatalf("the navigation opened %q, not the eleventh screen", got)
	}
	app.MustShow(t, "The eleventh screen")

	// The help lists every screen with the way to open it.
	app.Keys("?")
	help := app.Screen()
	screentest.MustShow(t, help, "Screens", "1 "+all[0].Title(), "0 "+all[9].Title(), "· Eleventh (tab ↓ enter)")
	if strings.Count(help, "Eleventh") < 2 { // the navigation's entry and the help's
		t.Fatalf("the help does not list the eleventh screen:\n%s", help)
	}
	// At 80 columns the Screens are in columns, the eleventh beside the
	// ninth and tenth: its way in does not widen their key column.
	app.Resize(80, 24)
	app.MustShow(t, "9 "+all[8].Title(), "0 "+all[9].Title(), "· Eleventh")
}

// A screen's text names another screen's number key as the root gives it,
// by position: the Events screen's hint follows the Webhooks screen
// wherever it sits, and names no key for a screen that is not mounted.
func TestScreensNameEachOthersKeysByPosition(t *testing.T) {
	// The Events screen's wait for a delivery blocks until the driver's
	// timeout; none comes here.
	defer func(was time.Duration) { uitest.CmdTimeout = was }(uitest.CmdTimeout)
	uitest.CmdTimeout = 200 * time.Millisecond
	listening := func() screentest.Option {
		_, option := screentest.WithInAppListener(t, true)
		return option
	}
	app := allScreens(t, listening())
	app.SignIn("alice@demo.test")
	app.Open(screenkit.EventsScreen)
	// The hint wraps: its words are read on one line.
	words := func(screen string) string {
		return strings.Join(strings.Fields(strings.ReplaceAll(screen, "│", " ")), " ")
	}
	named := "on the Webhooks screen (" + app.UI().NumberKeyOf(screenkit.WebhooksScreen) + ")"
	if app.UI().NumberKeyOf(screenkit.WebhooksScreen) == "" {
		named = "on the Webhooks screen," // past the tenth: no key to name
	}
	screentest.MustShow(t, words(app.Screen()), named)

	all := screentest.EachOf(screens.All)
	probe := screens.All(screenkit.Deps{Requests: ui.NewRequests()})
	buildOf := func(id ui.ScreenID) screentest.Build {
		for i, s := range probe {
			if s.ID() == id {
				return all[i]
			}
		}
		t.Fatalf("screen %q is not in screens.All", id)
		return nil
	}
	events, webhooks := buildOf(screenkit.EventsScreen), buildOf(screenkit.WebhooksScreen)
	reordered := screentest.New(t, screens.SignIn, screentest.WithScreen(events, webhooks), listening())
	reordered.SignIn("alice@demo.test")
	reordered.Open(screenkit.EventsScreen)
	screentest.MustShow(t, words(reordered.Screen()), "on the Webhooks screen (2)")

	alone := screentest.New(t, screens.SignIn, screentest.WithScreen(events), listening())
	alone.SignIn("alice@demo.test")
	screentest.MustShow(t, words(alone.Screen()), "on the Webhooks screen, L adds one")
}
