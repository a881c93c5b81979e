package ui_test

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

func click(x, y int) tea.Msg {
	return tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft}
}

func wheel(x, y int, down bool) tea.Msg {
	b := tea.MouseWheelUp
	if down {
		b = tea.MouseWheelDown
	}
	return tea.MouseWheelMsg{X: x, Y: y, Button: b}
}

// A click on a navigation entry opens its screen; a click on the status
// bar or the footer does nothing; the root asks for the mouse only when
// told to.
func TestClickOnTheNavigationOpensTheScreen(t *testing.T) {
	f := newPresenterFixture(t)
	if got := f.root.View().MouseMode; got != tea.MouseModeCellMotion {
		t.Fatalf("mouse mode %v, want cell motion", got)
	}
	f.drive(click(3, 1)) // "2 Card", the second line of the navigation
	if f.root.Active() != f.card {
		t.Fatalf("a click on Card left %s open", f.root.Active().ID())
	}
	f.drive(click(3, 28), click(3, 29), click(3, 5)) // status bar, footer, below the entries
	if f.root.Active() != f.card {
		t.Errorf("a click off the entries opened %s", f.root.Active().ID())
	}
	f.drive(click(3, 0))
	if f.root.Active() != f.account {
		t.Errorf("a click on Account left %s open", f.root.Active().ID())
	}
	plain := newFixture(t, true, false)
	if got := plain.root.View().MouseMode; got != tea.MouseModeNone {
		t.Errorf("mouse mode %v without Mouse", got)
	}
}

// mouseScreen takes the mouse: it records what it is given.
type mouseScreen struct {
	*fakeScreen
	got []ui.BodyMouseMsg
}

func (s *mouseScreen) TakesMouse() bool { return true }

func (s *mouseScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if m, ok := msg.(ui.BodyMouseMsg); ok {
		s.got = append(s.got, m)
		return s, nil
	}
	_, cmd := s.fakeScreen.Update(msg)
	return s, cmd
}

// A screen that takes the mouse gets clicks and the wheel in body
// coordinates; one that does not gets the wheel as ↓ and ↑.
func TestBodyMouseGoesToTheScreenInBodyCoordinates(t *testing.T) {
	taker := &mouseScreen{fakeScreen: &fakeScreen{id: accountScreen, title: "Account"}}
	other := &fakeScreen{id: cardScreen, title: "Card"}
	st := theme.New(true, false)
	root := ui.NewRoot(ui.RootOptions{Styles: &st, Screens: []ui.Screen{taker, other}, Mouse: true})
	uitest.Drive(root, tea.WindowSizeMsg{Width: 120, Height: 30}, ui.SignedInMsg{})
	first := strings.Split(uitest.Plain(root.View()), "\n")[0]
	left := ansi.StringWidth(first[:strings.Index(first, "Account body")]) // nav, border, gutter
	uitest.Drive(root, click(left+4, 3), wheel(left, 0, true), wheel(left, 0, false))
	want := []ui.BodyMouseMsg{{X: 4, Y: 3}, {X: 0, Y: 0, Wheel: 1}, {X: 0, Y: 0, Wheel: -1}}
	if len(taker.got) != 3 || taker.got[0] != want[0] || taker.got[1] != want[1] || taker.got[2] != want[2] {
		t.Fatalf("the screen got %+v, want %+v", taker.got, want)
	}
	uitest.Drive(root, uitest.Key("2"), wheel(left+2, 2, true), wheel(left+2, 2, true), wheel(left+2, 2, false), click(left+2, 2))
	if got := strings.Join(other.keys, " "); got != "down down up" {
		t.Errorf("a screen without the mouse got keys %q, want down down up", got)
	}
	if len(other.msgs) > 0 {
		for _, m := range other.msgs {
			if _, ok := m.(ui.BodyMouseMsg); ok {
				t.Errorf("a screen without the mouse got %+v", m)
			}
		}
	}
}

func release(x, y int, mod tea.KeyMod) tea.Msg {
	return tea.MouseReleaseMsg{X: x, Y: y, Button: tea.MouseLeft, Mod: mod}
}

// A plain press and release on y confirms an open dialog, on n cancels
// it; elsewhere in the box, a press without its release, a release on
// the other button and a click with shift, alt or ctrl do nothing.
func TestClickOnDialogButtons(t *testing.T) {
	for _, tc := range []struct {
		button, other string
		want          tea.Msg
	}{{"y ", "n cancel", confirmed{}}, {"n cancel", "y ", cancelled{}}} {
		f := newPresenterFixture(t)
		f.drive(ui.Confirm(ui.ConfirmSpec{Title: "Freeze?", ConfirmLabel: "Freeze", OnConfirm: confirmed{}, OnCancel: cancelled{}})())
		lines := strings.Split(f.view(), "\n")
		x, other, y := -1, -1, -1
		for i, l := range lines {
			if strings.Contains(l, "n cancel") {
				x, y = ansi.StringWidth(l[:strings.Index(l, tc.button)]), i
				other = ansi.StringWidth(l[:strings.Index(l, tc.other)])
			}
		}
		if y < 0 {
			t.Fatalf("no buttons:\n%s", f.view())
		}
		unanswered := func(what string, msgs ...tea.Msg) {
			t.Helper()
			for _, msg := range msgs {
				if _, cmd := f.root.Update(msg); cmd != nil || !f.root.DialogOpen() {
					t.Fatalf("%s answered the dialog", what)
				}
			}
		}
		unanswered("a click above the buttons", click(x, y-1), release(x, y-1, 0))
		unanswered("a press alone", click(x, y))
		unanswered("a press released on the other button", release(other, y, 0))
		unanswered("a press released off the buttons", click(x, y), release(x, y-1, 0))
		for _, mod := range []tea.KeyMod{tea.ModShift, tea.ModAlt, tea.ModCtrl, tea.ModShift | tea.ModCtrl} {
			unanswered(fmt.Sprintf("a click with %v", mod),
				tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft, Mod: mod}, release(x, y, mod))
			unanswered(fmt.Sprintf("a plain press released with %v", mod), click(x, y), release(x, y, mod))
		}
		unanswered("a right click", tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseRight}, tea.MouseReleaseMsg{X: x, Y: y, Button: tea.MouseRight})
		f.drive(click(x, y))
		_, cmd := f.root.Update(release(x, y, 0))
		msgs := messagesOf(cmd)
		if f.root.DialogOpen() || len(msgs) != 1 || msgs[0] != tc.want {
			t.Errorf("click on %q: open %v, messages %v", tc.button, f.root.DialogOpen(), msgs)
		}
	}
}

// A click with shift, alt or ctrl opens no screen either.
func TestModifiedClickOnTheNavigationDoesNothing(t *testing.T) {
	f := newPresenterFixture(t)
	for _, mod := range []tea.KeyMod{tea.ModShift, tea.ModAlt, tea.ModCtrl} {
		f.drive(tea.MouseClickMsg{X: 3, Y: 1, Button: tea.MouseLeft, Mod: mod})
		if f.root.Active() == f.card {
			t.Fatalf("a click with %v on Card opened it", mod)
		}
	}
}

type confirmed struct{}
type cancelled struct{}

// inspectedScreen has a long record for the inspector.
type inspectedScreen struct{ *fakeScreen }

func (s *inspectedScreen) Inspect() (string, []byte, bool) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 100 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"field%03d": 1`, i)
	}
	b.WriteString("}")
	return "record", []byte(b.String()), true
}

func (s *inspectedScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	_, cmd := s.fakeScreen.Update(msg)
	return s, cmd
}

// The wheel scrolls the inspector three lines a step, within its lines.
func TestWheelScrollsTheInspector(t *testing.T) {
	screen := &inspectedScreen{&fakeScreen{id: accountScreen, title: "Account"}}
	st := theme.New(true, false)
	root := ui.NewRoot(ui.RootOptions{Styles: &st, Screens: []ui.Screen{screen}, Mouse: true})
	uitest.Drive(root, tea.WindowSizeMsg{Width: 100, Height: 30}, ui.SignedInMsg{}, uitest.Key("i"))
	if !strings.Contains(uitest.Plain(root.View()), `"field000"`) {
		t.Fatalf("the inspector is not open:\n%s", uitest.Plain(root.View()))
	}
	uitest.Drive(root, wheel(40, 5, true), wheel(40, 5, true))
	view := uitest.Plain(root.View())
	if strings.Contains(view, `"field004"`) || !strings.Contains(view, `"field005"`) {
		t.Fatalf("two steps down (six lines, past the brace) do not start at field005:\n%s", view)
	}
	uitest.Drive(root, wheel(40, 5, false), wheel(40, 5, false), wheel(40, 5, false))
	if !strings.Contains(uitest.Plain(root.View()), `"field000"`) {
		t.Fatal("the wheel up does not come back to the top")
	}
}

// The wheel scrolls the help when it is longer than the body, back to its
// top and no further than its end; it opens at its top again.
func TestWheelScrollsTheHelp(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(tea.WindowSizeMsg{Width: 100, Height: 14}, uitest.Key("?"))
	top := f.view()
	if !strings.Contains(top, "Help") {
		t.Fatalf("the help is not open:\n%s", top)
	}
	f.drive(wheel(50, 3, true))
	scrolled := f.view()
	if scrolled == top || strings.Contains(strings.Split(scrolled, "\n")[0], "Help") {
		t.Fatalf("the wheel did not scroll the help:\n%s", scrolled)
	}
	for range 50 {
		f.drive(wheel(50, 3, true))
	}
	end := f.view()
	if !strings.Contains(end, "cardterm") && !strings.Contains(end, "Navigation") {
		t.Fatalf("the end of the help is not shown:\n%s", end)
	}
	f.drive(wheel(50, 3, false))
	if f.view() == end {
		t.Fatal("one step up from the end did not move: the offset ran past the end")
	}
	f.drive(uitest.Key("?"), uitest.Key("?"))
	if f.view() != top {
		t.Fatalf("the help did not open at its top:\n%s", f.view())
	}
}
