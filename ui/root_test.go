package ui_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
	"cardterm/ui/uitest"
)

// The screens the tests mount, named as the app names its own.
const (
	accountScreen ui.ScreenID = "account"
	cardScreen    ui.ScreenID = "card"
)

// fakeScreen records what it is given; it shows its title and last message.
type fakeScreen struct {
	id      ui.ScreenID
	title   string
	capture bool
	entered int
	msgs    []tea.Msg
	keys    []string
	copyVal string
	openURL string
	w, h    int
}

type fakeKeys struct{ act key.Binding }

func (k fakeKeys) ShortHelp() []key.Binding  { return []key.Binding{k.act} }
func (k fakeKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.act}} }

func (s *fakeScreen) ID() ui.ScreenID { return s.id }
func (s *fakeScreen) Title() string   { return s.title }
func (s *fakeScreen) Enter() tea.Cmd  { s.entered++; return nil }

// raise asks one fake screen to report a notice, as a screen's command would.
type raise struct {
	to   ui.ScreenID
	tone theme.Tone
	text string
	// everywhere raises it with ui.NotifyEverywhere.
	everywhere bool
	// unless and until, when set, are the notice's Unless and Until.
	unless ui.ScreenID
	until  time.Time
}

func (s *fakeScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if r, ok := msg.(raise); ok && r.to == s.id {
		if r.unless != "" || !r.until.IsZero() {
			n := ui.Notice{Tone: r.tone, Text: r.text, Unless: r.unless, Until: r.until, Everywhere: r.everywhere}
			return s, func() tea.Msg { return ui.NoticeMsg{Notice: n} }
		}
		if r.everywhere {
			return s, ui.NotifyEverywhere(r.tone, r.text)
		}
		return s, ui.Notify(r.tone, r.text)
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		s.keys = append(s.keys, k.String())
		return s, nil
	}
	s.msgs = append(s.msgs, msg)
	return s, nil
}
func (s *fakeScreen) SetSize(w, h int) { s.w, s.h = w, h }
func (s *fakeScreen) View() string {
	lines := []string{s.title + " body", fmt.Sprintf("size %dx%d", s.w, s.h), "evil: " + sanitize.Text("\x1b]52;c;aGk=\x07ok\u202e")}
	return strings.Join(lines, "\n")
}
func (s *fakeScreen) KeyMap() help.KeyMap {
	return fakeKeys{key.NewBinding(key.WithKeys("f"), key.WithHelp("f", s.title+" action"))}
}
func (s *fakeScreen) CapturesKeys() bool { return s.capture }
func (s *fakeScreen) CopyValue() (string, string, bool) {
	return "card id", s.copyVal, s.copyVal != ""
}

func (s *fakeScreen) has(pred func(tea.Msg) bool) bool {
	for _, m := range s.msgs {
		if pred(m) {
			return true
		}
	}
	return false
}

var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

type fixture struct {
	root    *ui.Root
	signIn  *fakeScreen
	account *fakeScreen
	card    *fakeScreen
	reqs    *ui.Requests
}

func newFixture(t *testing.T, isDark, noColor bool) *fixture {
	t.Helper()
	st := theme.New(isDark, noColor)
	f := &fixture{
		signIn:  &fakeScreen{id: ui.ScreenSignIn, title: "Sign in"},
		account: &fakeScreen{id: accountScreen, title: "Account"},
		card:    &fakeScreen{id: cardScreen, title: "Card"},
		reqs:    ui.NewRequests(),
	}
	f.root = ui.NewRoot(ui.RootOptions{
		Styles: &st, NoColor: noColor, Requests: f.reqs,
		SignIn:  f.signIn,
		Screens: []ui.Screen{f.account, f.card},
		Gateway: "SANDBOX", Sandbox: true,
		Session: func() (string, time.Time, bool) {
			return "demo@example.com", t0.Add(5*time.Hour + 59*time.Minute + 30*time.Second), true
		},
		Now:     func() time.Time { return t0 },
		Version: "test",
	})
	uitest.Drive(f.root, tea.WindowSizeMsg{Width: 100, Height: 30})
	return f
}

func (f *fixture) drive(msgs ...tea.Msg) { uitest.Drive(f.root, msgs...) }
func (f *fixture) view() string          { return uitest.Plain(f.root.View()) }

func (f *fixture) signInNow() { f.drive(ui.SignedInMsg{}) }

// quits presses key on the root and says whether the program quits.
func (f *fixture) quits(key string) bool {
	_, cmd := f.root.Update(uitest.Key(key))
	return has[tea.QuitMsg](messagesOf(cmd))
}

func checkSize(t *testing.T, content string, w, h int) {
	t.Helper()
	lines := strings.Split(content, "\n")
	if len(lines) != h {
		t.Fatalf("frame has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Fatalf("line %d is %d cells wide, want %d: %q", i, got, w, l)
		}
	}
}

func TestRootGolden(t *testing.T) {
	f := newFixture(t, true, false)
	uitest.Golden(t, "signed_out", f.view())

	f.signInNow()
	f.drive(ui.Notify(theme.ToneOK, "card frozen")())
	v := f.root.View()
	if !v.AltScreen || v.WindowTitle != "cardterm" {
		t.Errorf("view: AltScreen %v title %q", v.AltScreen, v.WindowTitle)
	}
	checkSize(t, v.Content, 100, 30)
	got := uitest.Plain(v)
	for _, want := range []string{"SANDBOX", "demo@example.com", "session 5 h 59 min", "card frozen", "1 Account", "2 Card", "Account body"} {
		if !strings.Contains(got, want) {
			t.Errorf("frame lacks %q", want)
		}
	}
	uitest.Golden(t, "signed_in", got)

	f.drive(uitest.Key("?"))
	uitest.Golden(t, "help", f.view())
	f.drive(uitest.Key("?"))

	f.drive(uitest.Key("S"))
	if !f.root.DialogOpen() {
		t.Fatal("S did not open the sign-out dialog")
	}
	checkSize(t, f.root.View().Content, 100, 30)
	uitest.Golden(t, "confirm", f.view())
}

func TestThemesRender(t *testing.T) {
	for _, tc := range []struct {
		name            string
		isDark, noColor bool
	}{{"dark", true, false}, {"light", false, false}, {"nocolor", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.isDark, tc.noColor)
			f.signInNow()
			f.drive(ui.Notify(theme.ToneDanger, "boom")(), uitest.Key("S"))
			v := f.root.View().Content
			checkSize(t, v, 100, 30)
			if tc.noColor && strings.Contains(v, "38;2;") {
				t.Error("NO_COLOR frame has colours")
			}
			if !tc.noColor && !strings.Contains(v, "38;2;") {
				t.Error("colour frame has no colours")
			}
		})
	}
}

func TestBackgroundColorRebuildsStyles(t *testing.T) {
	st := theme.New(true, false)
	r := ui.NewRoot(ui.RootOptions{Styles: &st, SignIn: &fakeScreen{title: "Sign in"}})
	uitest.Drive(r, tea.BackgroundColorMsg{Color: colorWhite{}})
	if st.IsDark {
		t.Error("styles not rebuilt for a light background")
	}
}

type colorWhite struct{}

func (colorWhite) RGBA() (r, g, b, a uint32) { return 0xffff, 0xffff, 0xffff, 0xffff }

func TestReportError(t *testing.T) {
	msg := ui.ReportError("load card", context.Canceled)().(ui.NoticeMsg)
	if msg.Notice.Text != "load card cancelled" || msg.Notice.Tone != theme.ToneInfo {
		t.Errorf("%+v", msg)
	}
	msg = ui.ReportError("load card", errors.New("bad \x1b[31mred\x1b[0m"))().(ui.NoticeMsg)
	if msg.Notice.Text != "load card: bad red" || msg.Notice.Tone != theme.ToneDanger {
		t.Errorf("%+v", msg)
	}
	if ui.ReportError("x", nil) != nil {
		t.Error("nil error reported")
	}
	if !(ui.Notice{Tone: theme.ToneDanger}).Sticky() || (ui.Notice{Tone: theme.ToneOK}).Sticky() {
		t.Error("errors must stay until the next key; information fades")
	}
	// No notice repeats its own prefix.
	msg = ui.ReportError("cannot reach the gateway", errors.New("Cannot reach the gateway: Post x"))().(ui.NoticeMsg)
	if msg.Notice.Text != "Cannot reach the gateway: Post x" {
		t.Errorf("prefix repeated: %q", msg.Notice.Text)
	}
}

func TestFormatRemaining(t *testing.T) {
	for d, want := range map[time.Duration]string{
		5*time.Hour + 59*time.Minute + 59*time.Second: "5 h 59 min", 6 * time.Hour: "6 h",
		65 * time.Minute: "1 h 5 min", 12 * time.Minute: "12 min", 30 * time.Second: "under 1 min", -time.Second: "expired",
	} {
		if got := ui.FormatRemaining(d); got != want {
			t.Errorf("%v: %q want %q", d, got, want)
		}
	}
}

func TestFirstFrameBeforeSize(t *testing.T) {
	r := ui.NewRoot(ui.RootOptions{SignIn: &fakeScreen{title: "Sign in"}})
	if cmd := r.Init(); cmd == nil {
		t.Fatal("Init returned no command")
	}
	if v := r.View(); !v.AltScreen {
		t.Fatal("no alt screen")
	}
	uitest.Drive(r, tea.WindowSizeMsg{Width: 5, Height: 1})
	checkSize(t, r.View().Content, 5, 1)
	uitest.Drive(r, tea.WindowSizeMsg{Width: 20, Height: 3})
	checkSize(t, r.View().Content, 20, 3)
}

type openerScreen struct{ fakeScreen }

func (s *openerScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	s.fakeScreen.Update(msg)
	return s, nil
}

func (s *openerScreen) OpenValue() (string, string, bool) {
	return "PIN page", s.openURL, s.openURL != ""
}

func TestOpenerAndPaste(t *testing.T) {
	st := theme.New(true, false)
	scr := &openerScreen{fakeScreen{id: cardScreen, title: "Card"}}
	other := &fakeScreen{id: accountScreen, title: "Account"}
	r := ui.NewRoot(ui.RootOptions{Styles: &st, SignIn: &fakeScreen{title: "Sign in"}, Screens: []ui.Screen{other, scr},
		Gateway: "gw.example.com", US: true, ReadOnly: true})
	uitest.Drive(r, tea.WindowSizeMsg{Width: 100, Height: 20}, ui.SignedInMsg{}, uitest.Key("2"), uitest.Key("o"))
	if n, _ := r.CurrentNotice(); n.Text != "no link to open" {
		t.Fatalf("notice %q", n.Text)
	}
	t.Setenv("BROWSER", "true")
	scr.openURL = "https://gw.example.com/pin?token=SECRET"
	uitest.Drive(r, uitest.Key("o"))
	if n, _ := r.CurrentNotice(); n.Text != "opened PIN page in the browser" {
		t.Fatalf("notice %q", n.Text)
	}
	uitest.Drive(r, tea.PasteMsg{Content: "pasted"})
	if !has[tea.PasteMsg](scr.msgs) || has[tea.PasteMsg](other.msgs) {
		t.Fatal("paste must go to the active screen only")
	}
	v := uitest.Plain(r.View())
	for _, want := range []string{"gw.example.com", "US", "READ-ONLY"} {
		if !strings.Contains(v, want) {
			t.Errorf("status bar lacks %q", want)
		}
	}
	if strings.Contains(v, "SANDBOX") || strings.Contains(v, "SECRET") {
		t.Error("status bar shows SANDBOX or the URL")
	}
}
