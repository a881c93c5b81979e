package ui_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
	"cardterm/ui/uitest"
)

// inspectScreen is a fake screen with a record to inspect.
type inspectScreen struct {
	*fakeScreen
	raw string
}

// Update keeps the wrapper: the root hands every screen messages (a
// session's start) and keeps what Update answers.
func (s inspectScreen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	_, cmd := s.fakeScreen.Update(msg)
	return s, cmd
}

func (s inspectScreen) Inspect() (string, []byte, bool) {
	return "record 7", []byte(s.raw), s.raw != ""
}

// The i key opens the record's JSON pretty-printed, with secrets masked and
// escapes neutralised; it scrolls, y copies exactly what is shown, esc
// closes; the help offers i only where there is something to inspect.
func TestInspectorShowsMasksScrollsAndCopies(t *testing.T) {
	f := newFixture(t, true, true)
	raw := `{"id":"tx-1","merchant":{"name":"EVIL\u001b[31m SHOP","city":"Paris"},"accessToken":"eyJhbGciOiJIUzI1NiJ9.secretpart","pin":"1234",` +
		`"lines":[` + strings.Repeat(`{"n":1},`, 40) + `{"n":2}],"last":"bottom-line"}`
	screen := inspectScreen{fakeScreen: &fakeScreen{id: accountScreen, title: "Account"}, raw: raw}
	f.root = ui.NewRoot(ui.RootOptions{SignIn: f.signIn, Screens: []ui.Screen{screen}})
	f.drive(tea.WindowSizeMsg{Width: 100, Height: 30}, ui.SignedInMsg{})

	f.drive(uitest.Key("?"))
	if v := f.view(); !strings.Contains(v, "inspect the gateway's JSON") {
		t.Fatalf("help does not offer i:\n%s", v)
	}
	f.drive(uitest.Key("esc"), uitest.Key("i"))
	v := f.view()
	for _, want := range []string{"JSON as the gateway sent it", "record 7", `"merchant": {`, `"name": "EVIL\u001b[31m SHOP"`, `"accessToken": "****part (masked)"`, `"pin": "****`, "esc/i close", "y copy JSON"} {
		if !strings.Contains(v, want) {
			t.Fatalf("inspector lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "\x1b") {
		t.Fatal("an escape reaches the screen")
	}
	if strings.Contains(v, "eyJhbGciOiJIUzI1NiJ9") || strings.Contains(v, `"1234"`) {
		t.Fatalf("a secret is shown:\n%s", v)
	}
	if strings.Contains(v, "bottom-line") {
		t.Fatal("the last line shows before scrolling")
	}
	f.drive(uitest.Key("G"))
	if v := f.view(); !strings.Contains(v, "bottom-line") || !regexp.MustCompile(`lines \d+–\d+ of \d+`).MatchString(v) {
		t.Fatalf("G does not reach the end:\n%s", v)
	}
	_, cmd := f.root.Update(uitest.Key("y"))
	var clip string
	for _, m := range uitest.Run(cmd) {
		if _, notice := m.(ui.NoticeMsg); !notice {
			clip = fmt.Sprint(m)
		}
	}
	if !strings.Contains(clip, `"city": "Paris"`) || strings.Contains(clip, "eyJhbGci") || strings.Contains(clip, "\x1b") {
		t.Fatalf("clipboard %q", clip)
	}
	f.drive(uitest.Key("esc"))
	if strings.Contains(f.view(), "JSON as the gateway sent it") {
		t.Fatal("esc does not close the inspector")
	}

	// Nothing selected: i says so and the help does not offer it.
	screen.raw = ""
	f.root = ui.NewRoot(ui.RootOptions{SignIn: f.signIn, Screens: []ui.Screen{screen}})
	f.drive(tea.WindowSizeMsg{Width: 100, Height: 30}, ui.SignedInMsg{}, uitest.Key("i"))
	if n, _ := f.root.CurrentNotice(); !strings.Contains(n.Text, "nothing to inspect") {
		t.Fatalf("notice %q", n.Text)
	}
	f.drive(uitest.Key("?"))
	if strings.Contains(f.view(), "inspect the gateway's JSON") {
		t.Fatal("help offers i with nothing to inspect")
	}
}

// While a text field has the keys, i types: the inspector does not open.
func TestInspectKeyTypesInAField(t *testing.T) {
	f := newFixture(t, true, true)
	fake := &fakeScreen{id: accountScreen, title: "Account", capture: true}
	screen := inspectScreen{fakeScreen: fake, raw: `{"id":"x"}`}
	f.root = ui.NewRoot(ui.RootOptions{SignIn: f.signIn, Screens: []ui.Screen{screen}})
	f.drive(tea.WindowSizeMsg{Width: 100, Height: 30}, ui.SignedInMsg{}, uitest.Key("i"))
	if strings.Contains(f.view(), "JSON as the gateway sent it") {
		t.Fatal("i opened the inspector over a text field")
	}
	if len(fake.keys) != 1 || fake.keys[0] != "i" {
		t.Fatalf("the field got %v", fake.keys)
	}
}
