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

// The status bar shows the newest live notice of the screen shown. These
// tests raise notices on Account (shown), on Card (out of sight) and from
// the shell, and read the bar on Account.

// shell is a notice the shell raises (not stamped with a screen).
func shell(tone theme.Tone, text string) tea.Msg {
	return ui.NoticeMsg{Notice: ui.Notice{Tone: tone, Text: text}}
}

// onAccount and onCard raise information on a screen.
func onAccount(text string) tea.Msg {
	return raise{to: accountScreen, tone: theme.ToneInfo, text: text}
}
func onCard(text string) tea.Msg { return raise{to: cardScreen, tone: theme.ToneInfo, text: text} }

// checkShown fails unless the status bar (and the accessible mode's
// notice line) says want, "" for no notice, and says none of others.
func (f *fixture) checkShown(t *testing.T, want string, others ...string) {
	t.Helper()
	n, ok := f.root.ShownNotice()
	if want == "" && ok || want != "" && n.Text != want {
		t.Fatalf("the bar shows %q (shown %v), want %q:\n%s", n.Text, ok, want, f.view())
	}
	if page := f.root.Page().Notice; page != want {
		t.Fatalf("the accessible notice line says %q, want %q", page, want)
	}
	v := f.view()
	if want != "" && !strings.Contains(v, want) {
		t.Fatalf("%q is not on screen:\n%s", want, v)
	}
	for _, other := range others {
		if strings.Contains(v, other) {
			t.Fatalf("%q is on screen, want %q:\n%s", other, want, v)
		}
	}
}

// A notice raised out of sight never takes the bar from the one the user
// reads; the newest of those that show on the screen is shown.
func TestTheBarShowsTheNewestNoticeOfTheScreenShown(t *testing.T) {
	cases := []struct {
		name  string
		steps []tea.Msg
		want  string
	}{
		{"a hidden screen's notice does not replace the screen's",
			[]tea.Msg{onAccount("view Big spends saved"), onCard("delivery dlv_1 received")}, "view Big spends saved"},
		{"a hidden screen's error does not blank the screen's warning",
			[]tea.Msg{raise{to: accountScreen, tone: theme.ToneWarn, text: "rate limited"}, raise{to: cardScreen, tone: theme.ToneDanger, text: "listener stopped"}}, "rate limited"},
		{"a hidden screen's notice does not replace the shell's",
			[]tea.Msg{shell(theme.ToneOK, "copied card id"), onCard("token renewed")}, "copied card id"},
		{"a newer shell-wide notice shows over the screen's",
			[]tea.Msg{onAccount("view Big spends saved"), shell(theme.ToneOK, "copied card id")}, "copied card id"},
		{"a newer notice of the screen shows over the shell's",
			[]tea.Msg{shell(theme.ToneOK, "copied card id"), onAccount("view Big spends saved")}, "view Big spends saved"},
		{"a hidden screen's alert shows everywhere",
			[]tea.Msg{onAccount("view Big spends saved"), raise{to: cardScreen, tone: theme.ToneWarn, text: "Declined: -12.40 EUR", everywhere: true}}, "Declined: -12.40 EUR"},
		{"a notice its screen says in its body shows elsewhere",
			[]tea.Msg{onAccount("view Big spends saved"), raise{to: cardScreen, tone: theme.ToneOK, text: "order paid", unless: cardScreen}}, "order paid"},
		{"a notice the shown screen says in its body stays off its bar",
			[]tea.Msg{onAccount("view Big spends saved"), raise{to: cardScreen, tone: theme.ToneOK, text: "order paid", unless: accountScreen}}, "view Big spends saved"},
		{"only a hidden screen's notice: the bar says nothing",
			[]tea.Msg{onCard("delivery dlv_1 received")}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, true, false)
			f.signInNow()
			f.drive(tc.steps...)
			f.checkShown(t, tc.want, "delivery dlv_1 received", "token renewed", "listener stopped")
		})
	}
}

// A screen's notice raised out of sight is shown when the user opens its
// screen, and the one left behind comes back with its own screen.
func TestNoticesFollowTheirScreens(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(onAccount("view Big spends saved"), onCard("delivery dlv_1 received"))
	f.drive(uitest.Key("2"))
	f.checkShown(t, "delivery dlv_1 received", "view Big spends saved")
	f.drive(uitest.Key("1"))
	f.checkShown(t, "view Big spends saved", "delivery dlv_1 received")
	if n, _ := f.root.CurrentNotice(); n.Text != "delivery dlv_1 received" {
		t.Fatalf("CurrentNotice is %q, want the latest raised", n.Text)
	}
}

// fading raises msg's notice to fade at once (Until is the fixture's
// clock) and returns the messages its timer sends: delivered later, they
// take it off.
func (f *fixture) fading(msg tea.Msg) []tea.Msg {
	_, cmd := f.root.Update(msg)
	var faded []tea.Msg
	for _, m := range fire(cmd) {
		if _, ok := m.(ui.NoticeMsg); ok {
			faded = append(faded, f.fading(m)...) // a screen's notice, stamped
			continue
		}
		if !strings.Contains(strings.ToLower(typeName(m)), "expire") {
			panic("fading: " + typeName(m))
		}
		faded = append(faded, m)
	}
	return faded
}

// fire runs cmd as the runtime does, timers included (a notice's timer of
// no time ends at once), and returns what it sends, batches expanded.
func fire(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	select {
	case msg := <-done:
		if batch, ok := msg.(tea.BatchMsg); ok {
			var out []tea.Msg
			for _, c := range batch {
				out = append(out, fire(c)...)
			}
			return out
		}
		return []tea.Msg{msg}
	case <-time.After(2 * time.Second):
		return nil
	}
}

// A notice that fades takes itself off, never another: the one it hid
// shows again, and a hidden screen's fading leaves the bar as it is.
func TestANoticeFadingTakesOffOnlyItself(t *testing.T) {
	cases := []struct {
		name           string
		before, fading tea.Msg
		want           string
	}{
		{"the shell's fades, the screen's shows again",
			onAccount("view Big spends saved"), ui.NoticeMsg{Notice: ui.Notice{Tone: theme.ToneOK, Text: "copied card id", Until: t0}}, "view Big spends saved"},
		{"the screen's fades, the shell's shows again",
			shell(theme.ToneOK, "copied card id"), raise{to: accountScreen, tone: theme.ToneInfo, text: "view Big spends saved", until: t0}, "copied card id"},
		{"a hidden screen's fades, the screen's stays",
			onAccount("view Big spends saved"), raise{to: cardScreen, tone: theme.ToneInfo, text: "delivery dlv_1 received", until: t0}, "view Big spends saved"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, true, false)
			f.signInNow()
			f.drive(tc.before)
			faded := f.fading(tc.fading)
			if len(faded) == 0 {
				t.Fatal("the fading notice was given no timer")
			}
			f.drive(faded...)
			f.checkShown(t, tc.want, "delivery dlv_1 received")
		})
	}
}

// A key press is the user acting on the warning or error on the bar: it
// takes that one off; a hidden screen's stays until read on its screen.
func TestAKeyClearsTheStickyNoticeShownOnly(t *testing.T) {
	cases := []struct {
		name                  string
		onAccount             tea.Msg
		hidden                string
		wantAfterKeyOnAccount string
	}{
		{"both are errors", raise{to: accountScreen, tone: theme.ToneDanger, text: "freeze: card is blocked (409)"}, "listener stopped", ""},
		{"the shown one is information", onAccount("view Big spends saved"), "token renewal failed", "view Big spends saved"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, true, false)
			f.signInNow()
			f.drive(tc.onAccount, raise{to: cardScreen, tone: theme.ToneWarn, text: tc.hidden})
			f.drive(uitest.Key("j"))
			f.checkShown(t, tc.wantAfterKeyOnAccount, tc.hidden, "card is blocked")
			f.drive(uitest.Key("2"))
			f.checkShown(t, tc.hidden)
			f.drive(uitest.Key("j"))
			f.checkShown(t, "", tc.hidden)
		})
	}
}

// A notice dismissed by its text (a browser sign-in cancelled) leaves the
// bar's notice alone and does not wait on its own screen either.
func TestDismissTakesTheNoticeOffEveryScreen(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(onAccount("view Big spends saved"), onCard("opened the sign-in page"))
	f.drive(ui.DismissNoticeMsg{Text: "opened the sign-in page"})
	f.checkShown(t, "view Big spends saved")
	f.drive(uitest.Key("2"))
	f.checkShown(t, "", "opened the sign-in page")
	f.drive(uitest.Key("m"))
	if !strings.Contains(f.view(), "opened the sign-in page") {
		t.Fatalf("the notice log lost the dismissed notice:\n%s", f.view())
	}
}

// i opens the gateway's answer behind the error on the bar, though a
// hidden screen raised an error since.
func TestInspectOpensTheAnswerOfTheErrorShown(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(ui.NoticeMsg{Notice: ui.Notice{Tone: theme.ToneDanger, Text: "loading: boom (500)", Answer: []byte(`{"message":"boom"}`)}})
	f.drive(raise{to: cardScreen, tone: theme.ToneDanger, text: "listener stopped"})
	f.drive(uitest.Key("i"))
	if v := f.view(); !strings.Contains(v, "the gateway's answer") || !strings.Contains(v, `"boom"`) {
		t.Fatalf("i did not open the answer of the error shown:\n%s", v)
	}
}

// The next user does not find the last one's notices waiting on their
// screens: the screens dropped at sign-out take theirs along.
func TestSignOutDropsTheScreensNotices(t *testing.T) {
	for _, end := range []tea.Msg{ui.SignedOutMsg{Reason: "bye"}, ui.SessionExpiredMsg{Reason: "expired"}} {
		f := newRebuildFixture(t)
		uitest.Drive(f.root, ui.SignedInMsg{}, raise{to: cardScreen, tone: theme.ToneDanger, text: "alice's card: frozen by a guard"})
		uitest.Drive(f.root, end, ui.SignedInMsg{})
		if n, ok := f.root.CurrentNotice(); ok {
			t.Fatalf("after %T the last user's notice is live: %q", end, n.Text)
		}
		uitest.Drive(f.root, uitest.Key("2"))
		if n, ok := f.root.ShownNotice(); ok {
			t.Fatalf("after %T the next user's Card shows %q", end, n.Text)
		}
	}
}
