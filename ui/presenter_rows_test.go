package ui_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// fullScreen fills every cell of its body: a row number and x to the edge.
type fullScreen struct{ fakeScreen }

func (s *fullScreen) View() string {
	lines := make([]string, s.h)
	for i := range lines {
		head := fmt.Sprintf("row %02d ", i)
		lines[i] = head + strings.Repeat("x", max(s.w-len(head), 0))
	}
	return strings.Join(lines, "\n")
}
func (s *fullScreen) KeyMap() help.KeyMap { return s.fakeScreen.KeyMap() }

// Update keeps the root holding the fullScreen, not the embedded one.
func (s *fullScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	_, cmd := s.fakeScreen.Update(msg)
	return s, cmd
}

// At 100x30, a projector's size, the box of keys covers nothing a screen
// draws: the body is laid out three rows shorter and the box takes them;
// f2 gives them back.
func TestPresenterBoxCoversNoContent(t *testing.T) {
	st := theme.New(true, false)
	screen := &fullScreen{fakeScreen{id: accountScreen, title: "Account"}}
	f := &fixture{signIn: &fakeScreen{id: ui.ScreenSignIn, title: "Sign in"}, reqs: ui.NewRequests()}
	f.root = ui.NewRoot(ui.RootOptions{Styles: &st, Requests: f.reqs, SignIn: f.signIn, Screens: []ui.Screen{screen},
		Session: func() (string, time.Time, bool) { return "demo@example.com", t0.Add(time.Hour), true },
		Now:     func() time.Time { return t0 }, Presenter: true})
	uitest.Drive(f.root, tea.WindowSizeMsg{Width: 100, Height: 30})
	f.signInNow()
	f.drive(uitest.Keys("j", "j", "k", "l")...)
	frame := ansi.Strip(f.view())
	if !strings.Contains(frame, "┃") || !strings.Contains(frame, "×2") {
		t.Fatalf("no box of keys:\n%s", frame)
	}
	if screen.h != 30-2-3 {
		t.Fatalf("the body is %d rows, want %d (3 kept for the box)", screen.h, 30-2-3)
	}
	for i := range screen.h {
		head := fmt.Sprintf("row %02d ", i)
		want := head + strings.Repeat("x", screen.w-len(head))
		if !strings.Contains(frame, want) {
			t.Fatalf("%q is covered:\n%s", head, frame)
		}
	}
	f.drive(uitest.Keys("f2")...)
	if screen.h != 30-2 || strings.Contains(ansi.Strip(f.view()), "┃") {
		t.Fatalf("f2: body %d rows, frame:\n%s", screen.h, f.view())
	}
}
