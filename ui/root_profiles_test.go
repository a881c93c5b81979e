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

// profileFixture is the root with profiles a, b and c, a in use.
func profileFixture(t *testing.T, profiles ...string) *fixture {
	t.Helper()
	st := theme.New(true, false)
	f := &fixture{
		signIn:  &fakeScreen{id: ui.ScreenSignIn, title: "Sign in", capture: true},
		account: &fakeScreen{id: accountScreen, title: "Account"},
		card:    &fakeScreen{id: cardScreen, title: "Card"},
		reqs:    ui.NewRequests(),
	}
	f.root = ui.NewRoot(ui.RootOptions{
		Styles: &st, Requests: f.reqs, SignIn: f.signIn,
		Screens: []ui.Screen{f.account, f.card},
		Gateway: "SANDBOX", Sandbox: true,
		Now:     func() time.Time { return t0 },
		Profile: "a", Profiles: profiles,
	})
	uitest.Drive(f.root, tea.WindowSizeMsg{Width: 100, Height: 30})
	return f
}

// messagesOf runs cmd and its batches, quit messages included (uitest.Run
// drops them).
func messagesOf(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, messagesOf(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func has[T tea.Msg](msgs []tea.Msg) bool {
	for _, m := range msgs {
		if _, ok := m.(T); ok {
			return true
		}
	}
	return false
}

func TestProfileSwitcherSignedOutQuitsForTheChosenProfile(t *testing.T) {
	f := profileFixture(t, "a", "b", "c")
	if !strings.Contains(f.view(), "profile a") {
		t.Fatalf("the status bar does not name the profile:\n%s", f.view())
	}
	// The sign-in form has the keys, and ctrl+p still opens the list.
	f.drive(uitest.Key("ctrl+p"))
	if !f.root.ProfilesOpen() {
		t.Fatal("ctrl+p did not open the switcher")
	}
	v := f.view()
	for _, want := range []string{"Switch profile", "a (in use)", "b", "c", "enter switch", "esc cancel"} {
		if !strings.Contains(v, want) {
			t.Errorf("the switcher lacks %q:\n%s", want, v)
		}
	}
	if len(f.signIn.keys) != 0 {
		t.Fatalf("the form got keys meant for the switcher: %v", f.signIn.keys)
	}
	f.drive(uitest.Key("esc"))
	if f.root.ProfilesOpen() {
		t.Fatal("esc left the switcher open")
	}
	if _, ok := f.root.SwitchTo(); ok {
		t.Fatal("cancelling chose a profile")
	}

	f.drive(uitest.Key("ctrl+p"), uitest.Key("down"), uitest.Key("down"))
	quit := f.quits("enter")
	if to, ok := f.root.SwitchTo(); !ok || to != "c" || !quit {
		t.Fatalf("chose %q %v; want c and quit", to, ok)
	}
}

func TestProfileSwitcherSignsOutFirst(t *testing.T) {
	f := profileFixture(t, "a", "b")
	f.signInNow()
	f.drive(uitest.Key("ctrl+p"), uitest.Key("down"))
	_, cmd := f.root.Update(uitest.Key("enter"))
	msgs := messagesOf(cmd)
	if !has[ui.SignOutMsg](msgs) || has[tea.QuitMsg](msgs) {
		t.Fatalf("signed in, the switch must sign out before it quits: %#v", msgs)
	}
	// The sign-in screen performs the logout and reports SignedOutMsg.
	_, cmd = f.root.Update(ui.SignedOutMsg{Reason: "Signed out"})
	if !has[tea.QuitMsg](messagesOf(cmd)) {
		t.Fatal("signed out for the switch, the program does not quit")
	}
	if to, _ := f.root.SwitchTo(); to != "b" {
		t.Fatalf("switch to %q", to)
	}
}

func TestProfileSwitcherStaysAwayWithoutAnotherProfile(t *testing.T) {
	for _, profiles := range [][]string{nil, {"a"}} {
		f := profileFixture(t, profiles...)
		f.drive(uitest.Key("ctrl+p"))
		if f.root.ProfilesOpen() {
			t.Fatalf("profiles %v: the switcher opened with nowhere to go", profiles)
		}
		f.drive(uitest.Key("f1"))
		if strings.Contains(f.view(), "switch profile") {
			t.Fatalf("profiles %v: the help offers a disabled key:\n%s", profiles, f.view())
		}
	}
	f := profileFixture(t, "a", "b")
	f.drive(uitest.Key("f1"))
	if !strings.Contains(f.view(), "switch profile") {
		t.Fatalf("the help does not name the switcher's key:\n%s", f.view())
	}
}
