package ui_test

import (
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
	"cardterm/ui/uitest"
)

// recorder is a screen's layer that keeps the keys it gets.
type recorder struct {
	keys []string
	done bool
}

func (l *recorder) Update(msg tea.Msg) tea.Cmd {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		l.keys = append(l.keys, k.String())
		l.done = l.done || k.String() == "esc"
	}
	return nil
}
func (l *recorder) SetSize(int, int)    {}
func (l *recorder) View() string        { return "recorder" }
func (l *recorder) KeyMap() help.KeyMap { return fakeKeys{} }
func (l *recorder) Done() bool          { return l.done }

// opener opens its layer on u (with another command, as a form's focus),
// or when it is told to (openLater), as a request's answer would.
type opener struct {
	fakeScreen
	layer *recorder
}

type openLater struct{}

func (s *opener) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	blink := func() tea.Msg { return nil }
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "u" {
			return s, ui.OpenLayer(s.layer, blink)
		}
	case openLater:
		return s, ui.OpenLayer(s.layer)
	}
	s.fakeScreen.Update(msg)
	return s, nil
}

func newOpeners(t *testing.T) (*ui.Root, *opener, *opener) {
	t.Helper()
	account := &opener{fakeScreen: fakeScreen{id: accountScreen, title: "Account"}, layer: &recorder{}}
	card := &opener{fakeScreen: fakeScreen{id: cardScreen, title: "Card"}, layer: &recorder{}}
	root := ui.NewRoot(ui.RootOptions{Screens: []ui.Screen{account, card}, SignIn: &fakeScreen{id: ui.ScreenSignIn}})
	uitest.Drive(root, tea.WindowSizeMsg{Width: 100, Height: 30}, ui.SignedInMsg{})
	return root, account, card
}

// What is typed right after the key that opens a form goes into the
// form: the layer opens before the next key is read, not when its
// command's message comes back. The keys here are given one after the
// other with no command run in between, as a fast typist's are queued.
func TestALayerOpensBeforeTheNextKey(t *testing.T) {
	root, account, _ := newOpeners(t)
	for _, k := range []string{"u", "c", "d"} {
		root.Update(uitest.Key(k))
	}
	if got := account.layer.keys; len(got) != 2 || got[0] != "c" || got[1] != "d" {
		t.Fatalf("the layer got %q, the screen %q", got, account.keys)
	}
	if len(account.keys) != 0 {
		t.Fatalf("the screen got %q under its layer", account.keys)
	}
}

// A layer asked for by a screen that is not shown (its answer came in
// the background) opens over that screen, not over the one shown.
func TestALayerOpensOverTheScreenThatAskedForIt(t *testing.T) {
	root, account, card := newOpeners(t)
	uitest.Drive(root, openLater{})
	if top, ok := root.TopLayerOf(cardScreen); !ok || top != card.layer {
		t.Fatalf("over the card screen: %T", top)
	}
	if top, ok := root.TopLayerOf(accountScreen); !ok || top != account.layer {
		t.Fatalf("over the account screen: %T", top)
	}
	uitest.Drive(root, uitest.Key("esc"))
	if _, ok := root.TopLayer(); ok {
		t.Fatal("esc did not close the account's layer")
	}
	if top, ok := root.TopLayerOf(cardScreen); !ok || top != card.layer {
		t.Fatal("esc on the account screen closed the card's layer")
	}
}

// On a terminal too short for the help, the keys scroll it as the wheel
// does, and the footer offers them only while there is more that way: a
// keyboard user reaches the screens' keys at the end of the help.
func TestKeysScrollTheHelp(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(tea.WindowSizeMsg{Width: 100, Height: 14}, uitest.Key("?"))
	top := f.view()
	footer := lastLine(top)
	if !strings.Contains(footer, "↓/j more") || strings.Contains(footer, "↑/k back") {
		t.Fatalf("at the top the footer should offer more, not back: %q", footer)
	}
	f.drive(uitest.Key("down"))
	if strings.Contains(strings.Split(f.view(), "\n")[0], "Help") {
		t.Fatalf("down did not scroll the help:\n%s", f.view())
	}
	for range 10 {
		f.drive(uitest.Key("pgdown"))
	}
	end := f.view()
	if !strings.Contains(end, "Navigation") {
		t.Fatalf("page down does not reach the end of the help:\n%s", end)
	}
	if footer := lastLine(end); strings.Contains(footer, "more") || !strings.Contains(footer, "↑/k back") {
		t.Fatalf("at the end the footer should offer back, not more: %q", footer)
	}
	f.drive(uitest.Key("pgup"), uitest.Key("pgup"), uitest.Key("pgup"), uitest.Key("pgup"), uitest.Key("k"))
	if f.view() != top {
		t.Fatalf("page up and k do not come back to the top:\n%s", f.view())
	}
}

// The help and the notice log close with the keys in force that open
// them: a keys file that moves the help moves what closes it, and the
// footer names it.
func TestTheSheetsCloseWithTheKeysInForce(t *testing.T) {
	uitest.UseKeys(t, "global.help: f9\nglobal.notices: f8\n")
	for _, tc := range []struct{ opens, footer string }{{"f9", "f9/esc close help"}, {"f8", "f8/esc close notices"}} {
		f := newFixture(t, true, false)
		f.signInNow()
		f.drive(uitest.Key(tc.opens))
		if _, open := f.root.TopLayer(); !open || !strings.Contains(lastLine(f.view()), tc.footer) {
			t.Fatalf("%s: want a sheet whose footer says %q:\n%s", tc.opens, tc.footer, f.view())
		}
		f.drive(uitest.Key(tc.opens))
		if _, open := f.root.TopLayer(); open {
			t.Errorf("%s did not close what it opened", tc.opens)
		}
	}
}
