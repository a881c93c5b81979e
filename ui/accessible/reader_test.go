package accessible

import (
	"io"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
)

func keyNamesOf(msgs []tea.Msg) string {
	var names []string
	for _, m := range msgs {
		names = append(names, m.(tea.KeyPressMsg).String())
	}
	return strings.Join(names, " ")
}

// A line is keys: a number picks an action, ":name" goes to a screen, key
// names press keys; in a text field a line is its new text and enter,
// "!" makes it keys; anything else is said to be wrong and sends nothing.
func TestALineBecomesKeyPresses(t *testing.T) {
	r := newReader(io.Discard)
	screen := ui.Page{Actions: []key.Binding{
		key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "freeze")),
		key.NewBinding(key.WithKeys("ctrl+s", "enter"), key.WithHelp("ctrl+s", "send")),
	}}
	field := ui.Page{Typing: true}
	withEnter := ui.Page{Actions: []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "sign in"))}}
	for _, c := range []struct {
		page      ui.Page
		line      string
		keys      string
		complaint string
	}{
		{screen, "1", "f", ""},
		{screen, " 2 ", "ctrl+s", ""},
		{screen, "3", "", "There is no action 3: the list goes from 1 to 2."},
		{screen, ":ev", ": e v enter", ""},
		{screen, "j j enter", "j j enter", ""},
		{screen, "S", "S", ""},
		{screen, "!ctrl+t", "ctrl+t", ""},
		{screen, "freeze", "", `"freeze" is not a key`},
		{ui.Page{Actions: screen.Actions[:1]}, "", "", "An empty line does nothing here"},
		{withEnter, "", "enter", ""},
		{field, "bob smith", "ctrl+u b o b space s m i t h enter", ""},
		{field, "", "enter", ""},
		{field, "!tab esc", "tab esc", ""},
		{field, "!", "", "No key given after !."},
		{field, "!nope", "", `"nope" is not a key`},
	} {
		msgs, complaint := r.read(c.line, c.page)
		if got := keyNamesOf(msgs); got != c.keys || !strings.HasPrefix(complaint, c.complaint) || (c.complaint == "") != (complaint == "") {
			t.Errorf("%q (typing %v): keys %q, complaint %q; want %q, %q", c.line, c.page.Typing, got, complaint, c.keys, c.complaint)
		}
	}
}
