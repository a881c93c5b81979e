package ui_test

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// newPresenterFixture is the fixture's app in presenter mode, signed in.
func newPresenterFixture(t *testing.T) *fixture {
	t.Helper()
	st := theme.New(true, false)
	f := &fixture{
		signIn:  &fakeScreen{id: ui.ScreenSignIn, title: "Sign in"},
		account: &fakeScreen{id: accountScreen, title: "Account"},
		card:    &fakeScreen{id: cardScreen, title: "Card"},
		reqs:    ui.NewRequests(),
	}
	f.root = ui.NewRoot(ui.RootOptions{
		Styles: &st, Requests: f.reqs, SignIn: f.signIn,
		Screens: []ui.Screen{f.account, f.card},
		Session: func() (string, time.Time, bool) { return "demo@example.com", t0.Add(time.Hour), true },
		Now:     func() time.Time { return t0 }, Presenter: true, Mouse: true,
	})
	uitest.Drive(f.root, tea.WindowSizeMsg{Width: 100, Height: 30})
	f.signInNow()
	return f
}

// presenterLine is the frame's line that shows the keys pressed.
func presenterLine(frame string) string {
	for _, l := range strings.Split(frame, "\n") {
		if strings.Contains(l, "┃") && !strings.Contains(l, "━") {
			return l
		}
	}
	return ""
}

// The last five keys show in a box, a repeat folded with its count and
// ctrl and alt named; f2 hides them and shows them again.
func TestPresenterShowsTheLastKeysFolded(t *testing.T) {
	f := newPresenterFixture(t)
	f.drive(uitest.Keys("2", "j", "j", "j")...)
	if got := presenterLine(f.view()); !strings.Contains(got, " 2 ") || !strings.Contains(got, " j  ×3") {
		t.Fatalf("presenter line %q lacks 2 and j ×3:\n%s", got, f.view())
	}
	f.drive(uitest.Keys("k", "ctrl+r", "alt+x", "esc", "l")...)
	got := presenterLine(f.view())
	for _, want := range []string{"ctrl+r", "alt+x", "esc", " l "} {
		if !strings.Contains(got, want) {
			t.Errorf("presenter line %q lacks %q", got, want)
		}
	}
	if strings.Contains(got, " 2 ") || strings.Contains(got, "×3") {
		t.Errorf("presenter line %q still shows keys older than the last five", got)
	}
	f.drive(uitest.Key("f2"))
	if got := presenterLine(f.view()); got != "" {
		t.Errorf("f2 did not hide the keys: %q", got)
	}
	f.drive(uitest.Key("f2"), uitest.Key("1"))
	if got := presenterLine(f.view()); !strings.Contains(got, " 1 ") || strings.Contains(got, "ctrl+r") {
		t.Errorf("f2 again: %q, want the keys since, 1 alone", got)
	}
	if help := uitest.Plain(f.root.View()); !strings.Contains(f.helpText(), "f2") {
		t.Errorf("the help does not say f2 hides the keys:\n%s", help)
	}
}

// helpText is the ? overlay's text.
func (f *fixture) helpText() string {
	f.drive(uitest.Key("?"))
	defer f.drive(uitest.Key("?"))
	return f.view()
}

// The box is over the body, at its bottom right: the status bar and the
// footer are the same as without it.
func TestPresenterNeverCoversTheStatusBarOrFooter(t *testing.T) {
	f := newPresenterFixture(t)
	before := strings.Split(f.view(), "\n")
	f.drive(uitest.Keys("f", "ctrl+r", "j", "alt+x", "k")...)
	after := strings.Split(f.view(), "\n")
	if len(after) != 30 {
		t.Fatalf("frame has %d lines", len(after))
	}
	checkSize(t, f.root.View().Content, 100, 30)
	for _, i := range []int{28, 29} {
		if after[i] != before[i] {
			t.Errorf("line %d changed:\n%q\n%q", i, before[i], after[i])
		}
	}
	if !strings.Contains(after[27], "━") || !strings.Contains(after[25], "━") {
		t.Errorf("the box is not on the body's last three lines:\n%s", strings.Join(after[24:], "\n"))
	}
}

// plainTypingScreen is a screen whose field says whether it is plain.
type plainTypingScreen struct {
	*fakeScreen
	plain bool
}

func (s *plainTypingScreen) TypingPlain() bool { return s.plain }

func (s *plainTypingScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	_, cmd := s.fakeScreen.Update(msg)
	return s, cmd
}

// What is typed in a field that may be secret shows as •••, without its
// length; the keys around it (tab, enter, ctrl+s) show. A screen that
// says its field is plain shows what is typed.
func TestPresenterMasksWhatIsTypedInASecretField(t *testing.T) {
	f := newPresenterFixture(t)
	f.account.capture = true // a text field of unknown kind has the keys
	f.drive(uitest.Key("tab"))
	f.drive(uitest.Type("hunter2 x")...)
	f.drive(uitest.Key("ctrl+s"))
	got := presenterLine(f.view())
	if !strings.Contains(got, "•••") || !strings.Contains(got, "ctrl+s") {
		t.Fatalf("presenter line %q lacks ••• and ctrl+s", got)
	}
	for _, secret := range []string{"h", "u", "2", "x", "space", "×"} {
		if strings.Contains(strings.ReplaceAll(got, "ctrl+s", ""), secret) {
			t.Errorf("presenter line %q shows %q of the secret", got, secret)
		}
	}

	plain := &plainTypingScreen{fakeScreen: &fakeScreen{id: accountScreen, title: "Lookup", capture: true}, plain: true}
	st := theme.New(true, false)
	root := ui.NewRoot(ui.RootOptions{Styles: &st, Screens: []ui.Screen{plain}, Presenter: true})
	uitest.Drive(root, tea.WindowSizeMsg{Width: 100, Height: 30}, ui.SignedInMsg{})
	uitest.Drive(root, uitest.Type("ab")...)
	if got := presenterLine(uitest.Plain(root.View())); !strings.Contains(got, " a ") || !strings.Contains(got, " b ") {
		t.Errorf("a plain field's typing is hidden: %q", got)
	}
	plain.plain = false
	uitest.Drive(root, uitest.Type("zz")...)
	if got := presenterLine(uitest.Plain(root.View())); strings.Contains(got, " z ") || !strings.Contains(got, "•••") {
		t.Errorf("a secret field's typing shows: %q", got)
	}
}

// Without --presenter nothing is drawn until f2.
func TestPresenterOffDrawsNothing(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(uitest.Keys("2", "j")...)
	if got := presenterLine(f.view()); got != "" {
		t.Fatalf("keys shown without presenter mode: %q", got)
	}
	f.drive(uitest.Key("f2"), uitest.Key("j"))
	if got := presenterLine(f.view()); !strings.Contains(got, " j ") {
		t.Fatalf("f2 did not turn the keys on: %q", got)
	}
}
