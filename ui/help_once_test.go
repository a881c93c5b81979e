package ui_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// helpSections cuts the plain help sheet into its sections by their
// titles, each the text up to the next title.
func helpSections(sheet string, titles ...string) map[string]string {
	sections := map[string]string{}
	var current string
	for line := range strings.SplitSeq(sheet, "\n") {
		_, body, _ := strings.Cut(line, "│")
		heading := strings.TrimSpace(body)
		for _, title := range titles {
			if heading == title {
				current = title
			}
		}
		if current != "" {
			sections[current] += body + "\n"
		}
	}
	return sections
}

// The help says each key once in the group where it acts: the arrows and
// enter of a screen's list, its / and its r, are the screen's; those of
// the navigation pane are the navigation's; none is said again with the
// global keys, which used to list ↑/k, ↓/j, enter (the navigation's) and
// / and r (the screen's) a second time.
func TestHelpSaysEachKeyOnceWhereItActs(t *testing.T) {
	bind := func(keys []string, helpKey, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(helpKey, desc))
	}
	list := [][]key.Binding{{
		bind([]string{"enter"}, "enter", "open the entry"),
		bind([]string{"up", "k"}, "↑/k", "previous entry"),
		bind([]string{"down", "j"}, "↓/j", "next entry"),
		bind([]string{"/"}, "/", "filter the entries"),
		bind([]string{"r"}, "r", "reload the entries"),
	}}
	st := theme.New(true, false)
	screen := manyKeysScreen{&fakeScreen{id: accountScreen, title: "Account"}, manyKeys{list}}
	root := ui.NewRoot(ui.RootOptions{Styles: &st, SignIn: &fakeScreen{id: ui.ScreenSignIn, title: "Sign in"},
		Screens: []ui.Screen{screen}, Session: func() (string, time.Time, bool) { return "u", time.Now().Add(time.Hour), true }})
	m := uitest.Drive(root, tea.WindowSizeMsg{Width: 200, Height: 60}, ui.SignedInMsg{}, uitest.Key("?"))
	sheet := uitest.Plain(m.View())
	sections := helpSections(sheet, "Account", "Global", "Screens", "Navigation (tab)")
	for _, title := range []string{"Account", "Global", "Navigation (tab)"} {
		if sections[title] == "" {
			t.Fatalf("no %q section in the help:\n%s", title, sheet)
		}
	}
	for _, said := range []string{"↑/k", "↓/j", "enter", "/ filter", "r refresh"} {
		if strings.Contains(sections["Global"], said) {
			t.Errorf("the global keys say %q again:\n%s", said, sections["Global"])
		}
	}
	for _, want := range []string{"open the entry", "previous entry", "next entry", "filter the entries", "reload the entries"} {
		if !strings.Contains(sections["Account"], want) {
			t.Errorf("the screen's keys lack %q:\n%s", want, sections["Account"])
		}
	}
	for _, want := range []string{"↑/k up", "↓/j down", "enter open"} {
		if !strings.Contains(sections["Navigation (tab)"], want) {
			t.Errorf("the navigation's keys lack %q:\n%s", want, sections["Navigation (tab)"])
		}
	}
	for _, still := range []string{`tab +focus`, `esc +back/cancel`, `q +quit`, `y +copy`} {
		if !regexp.MustCompile(still).MatchString(sections["Global"]) {
			t.Errorf("the global keys lost %q:\n%s", still, sections["Global"])
		}
	}
}

// The navigation's keys are the registry's (nav.*): a keys file that moves
// them moves what the pane runs and what the help says of it.
func TestKeysFileMovesTheNavigationKeys(t *testing.T) {
	uitest.UseKeys(t, "nav.down: n\nnav.open: l\n")
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(uitest.Keys("tab", "n", "l")...)
	if f.root.Active() != f.card {
		t.Fatal("n and l in the navigation did not open Card")
	}
	f.drive(uitest.Key("?"))
	navigation := helpSections(f.view(), "Navigation (tab)")["Navigation (tab)"]
	if !regexp.MustCompile(`n +down`).MatchString(navigation) || !regexp.MustCompile(`l +open`).MatchString(navigation) {
		t.Fatalf("the help does not say the keys in force:\n%s", navigation)
	}
}
