package ui_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// The frame is exactly the terminal's size at any size, tiny ones included,
// in every state of the shell; a zero size draws nothing and never panics.
func TestFrameExactAtTinySizes(t *testing.T) {
	states := map[string]func(f *fixture){
		"signed out": func(*fixture) {},
		"signed in":  func(f *fixture) { f.signInNow() },
		"help":       func(f *fixture) { f.signInNow(); f.drive(uitest.Key("?")) },
		"dialog":     func(f *fixture) { f.signInNow(); f.drive(uitest.Key("S")) },
		"nav focus":  func(f *fixture) { f.signInNow(); f.drive(uitest.Key("tab")) },
	}
	sizes := [][2]int{{0, 0}, {0, 5}, {20, 0}, {1, 1}, {2, 2}, {3, 3}, {5, 1}, {20, 5}, {20, 2}, {7, 4}, {40, 3}, {12, 8}}
	for name, setup := range states {
		for _, sz := range sizes {
			f := newFixture(t, true, false)
			setup(f)
			f.drive(ui.Notify(theme.ToneDanger, "a notice far too long for a tiny terminal to show")())
			f.drive(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			c := f.root.View().Content
			if sz[0] == 0 || sz[1] == 0 {
				if c != "" {
					t.Errorf("%s %v: %q, want nothing", name, sz, c)
				}
				continue
			}
			lines := strings.Split(c, "\n")
			if len(lines) != sz[1] {
				t.Errorf("%s %v: %d lines", name, sz, len(lines))
				continue
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != sz[0] {
					t.Errorf("%s %v: line %d is %d wide: %q", name, sz, i, w, l)
				}
			}
		}
	}
}

// Screens put gateway text in a confirmation (a webhook's name, a merchant):
// the dialog draws it sanitized, whatever the screen did.
func TestConfirmDialogSanitizes(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(ui.Confirm(ui.ConfirmSpec{
		Title:        "Delete \x1b[2J\x1b]0;pwned\x07webhook\u202e?",
		Lines:        []string{"Name: \x1b]8;;https://evil.test\x1b\\Ops\x1b]8;;\x1b\\", "URL:  \x1b]52;c;aGk=\x07https://x\r\x9b31m", "\u200bzero\x00width"},
		ConfirmLabel: "Delete\x1b[5m",
		Tone:         theme.ToneDanger,
	})())
	c := f.root.View().Content
	for _, bad := range []string{"\x1b[2J", "\x1b]0;", "\x1b]8;", "\x1b]52", "\x07", "\r", "\x9b", "\u202e", "\u200b", "\x00", "\x1b[5m"} {
		if strings.Contains(c, bad) {
			t.Errorf("the dialog draws %q raw", bad)
		}
	}
	plain := uitest.Plain(f.root.View())
	for _, want := range []string{"Delete webhook<U+202E>?", "Name: Ops", `https://x\r`, "<U+200B>zero", "Delete"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, plain)
		}
	}
}

// A notice built by hand (not through Notify) is sanitized too.
func TestNoticeMsgSanitized(t *testing.T) {
	f := newFixture(t, true, false)
	f.drive(ui.NoticeMsg{Notice: ui.Notice{Tone: theme.ToneDanger, Text: "bad \x1b]52;c;aGk=\x07news\r"}})
	n, ok := f.root.CurrentNotice()
	if !ok || n.Text != `bad news\r` {
		t.Fatalf("notice %q", n.Text)
	}
	if c := f.root.View().Content; strings.Contains(c, "\x1b]52") || strings.Contains(c, "\r") {
		t.Fatalf("raw notice drawn: %q", c)
	}
}

// A dialog that opens while the help is showing replaces it, so what the
// question is about is visible and esc closes the dialog, then nothing else.
func TestDialogClosesHelp(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(uitest.Key("?"))
	f.drive(ui.Confirm(ui.ConfirmSpec{Title: "Sure?"})())
	if v := f.view(); strings.Contains(v, "Global") || !strings.Contains(v, "Sure?") {
		t.Fatalf("help still drawn under the dialog:\n%s", v)
	}
	f.drive(uitest.Key("esc"))
	if f.root.DialogOpen() || strings.Contains(f.view(), "Global") {
		t.Fatal("esc did not leave the screen showing")
	}
}

func TestInputStylesFollowTheme(t *testing.T) {
	for _, tc := range []struct{ isDark, noColor bool }{{true, false}, {false, false}, {true, true}} {
		st := theme.New(tc.isDark, tc.noColor)
		in := textinput.New()
		in.SetStyles(ui.InputStyles(&st))
		in.Placeholder = "placeholder"
		_ = in.Focus()
		v := in.View()
		in.SetValue("typed")
		in.Blur()
		v += in.View()
		if tc.noColor && strings.Contains(v, "38;") {
			t.Errorf("NO_COLOR input has colours: %q", v)
		}
		if !tc.noColor && !strings.Contains(v, "38;") {
			t.Errorf("input has no colours: %q", v)
		}
		if in.Styles().Cursor.Blink {
			t.Error("blinking cursor")
		}
	}
}

// o on a screen without a link says so, and the help offers o only where a
// screen has links.
func TestOpenWithoutOpener(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.drive(uitest.Key("o"))
	if n, _ := f.root.CurrentNotice(); n.Text != "no link to open" {
		t.Fatalf("notice %q", n.Text)
	}
	f.drive(uitest.Key("?"))
	if v := f.view(); strings.Contains(v, "open link") || !regexp.MustCompile(`y +copy`).MatchString(v) {
		t.Fatalf("help:\n%s", v)
	}
}

// manyKeys is a key map longer and wider than an 80x24 terminal's body
// holds side by side.
type manyKeys struct{ groups [][]key.Binding }

func (k manyKeys) ShortHelp() []key.Binding  { return k.groups[0] }
func (k manyKeys) FullHelp() [][]key.Binding { return k.groups }

type manyKeysScreen struct {
	*fakeScreen
	km manyKeys
}

func (s manyKeysScreen) KeyMap() help.KeyMap { return s.km }

func (s manyKeysScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	_, cmd := s.fakeScreen.Update(msg)
	return s, cmd
}

func TestHelpShowsEveryKeyAt80x24(t *testing.T) {
	var groups [][]key.Binding
	var want []string
	for g := range 3 {
		var grp []key.Binding
		for i := range 5 {
			k := fmt.Sprintf("%c", 'a'+g*5+i)
			desc := fmt.Sprintf("action number %d of group %d", i, g)
			grp = append(grp, key.NewBinding(key.WithKeys(k), key.WithHelp(k, desc)))
			want = append(want, desc)
		}
		groups = append(groups, grp)
	}
	st := theme.New(true, false)
	scr := manyKeysScreen{&fakeScreen{id: accountScreen, title: "Account"}, manyKeys{groups}}
	root := ui.NewRoot(ui.RootOptions{Styles: &st, SignIn: &fakeScreen{id: ui.ScreenSignIn, title: "Sign in"},
		Screens: []ui.Screen{scr}, Session: func() (string, time.Time, bool) { return "u", time.Now().Add(time.Hour), true }})
	m := uitest.Drive(root, tea.WindowSizeMsg{Width: 80, Height: 24}, ui.SignedInMsg{}, uitest.Key("?"))
	v := uitest.Plain(m.View())
	for _, d := range want {
		if !strings.Contains(v, d) {
			t.Fatalf("help at 80x24 lacks %q:\n%s", d, v)
		}
	}
}

// y copies what the screen shows: no escape sequence, control or bidi
// override reaches the clipboard, where a paste into a shell could run it.
func TestCopyIsSanitized(t *testing.T) {
	f := newFixture(t, true, false)
	f.signInNow()
	f.account.copyVal = "0xabc\x1b]52;c;ZXZpbA==\x07\r\u202edef"
	_, c := f.root.Update(uitest.Key("y"))
	var clip string
	for _, m := range uitest.Run(c) {
		if _, notice := m.(ui.NoticeMsg); !notice {
			clip = fmt.Sprint(m)
		}
	}
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e"} {
		if strings.Contains(clip, bad) {
			t.Fatalf("the clipboard holds %q: %q", bad, clip)
		}
	}
	if !strings.Contains(clip, "0xabc") || !strings.Contains(clip, "<U+202E>def") {
		t.Fatalf("clipboard %q", clip)
	}
}
