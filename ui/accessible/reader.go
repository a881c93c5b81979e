package accessible

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
)

// reader says the pages and reads the user's lines.
type reader struct {
	out      io.Writer
	lastPage string
	// noticesSaid counts the notices said (ui.Page.NoticesLogged).
	noticesSaid int
}

func newReader(out io.Writer) *reader { return &reader{out: out} }

// say prints one line.
func (r *reader) say(line string) { fmt.Fprintln(r.out, line) }

// print says the page when it differs from the last one said, then the
// prompt.
func (r *reader) print(p ui.Page) {
	text := pageText(p)
	if text == r.lastPage {
		r.say("Nothing changed.")
	} else {
		fmt.Fprint(r.out, "\n"+text)
		r.lastPage = text
	}
	r.sayNotices(p)
	r.prompt(p)
}

// reprint says the page again when it changed since it was said.
func (r *reader) reprint(p ui.Page) {
	if pageText(p) != r.lastPage {
		r.print(p)
	}
}

// sayNotices says the notices raised since the last said, each once,
// whether or not they are still on the status bar.
func (r *reader) sayNotices(p ui.Page) {
	for _, n := range p.NoticesSince(r.noticesSaid) {
		r.say("Notice: " + n)
	}
	r.noticesSaid = p.NoticesLogged
}

// prompt says what a line does now.
func (r *reader) prompt(p ui.Page) {
	if p.Typing {
		r.say("A text field has the keys: type its text and press enter (an empty line keeps what it holds; a line starting with ! is keys, as !tab or !esc).")
		return
	}
	r.say("Type an action's number or its key, then enter (:name goes to a screen; an empty line is enter).")
}

// pageText is the page in reading order.
func pageText(p ui.Page) string {
	var b strings.Builder
	if p.Title != "" {
		fmt.Fprintf(&b, "== %s ==\n", p.Title)
	}
	if p.Status != "" {
		fmt.Fprintf(&b, "Status: %s\n", p.Status)
	}
	if p.Body != "" {
		b.WriteString(p.Body + "\n")
	}
	if p.Waiting {
		b.WriteString("Waiting for the gateway.\n")
	}
	if len(p.Dialog) > 0 {
		fmt.Fprintf(&b, "Dialog: %s\n", p.Dialog[0])
		for _, line := range p.Dialog[1:] {
			b.WriteString("  " + line + "\n")
		}
	}
	if len(p.Screens) > 0 {
		fmt.Fprintf(&b, "Screens (a number, or :name): %s\n", strings.Join(p.Screens, ", "))
	}
	if len(p.Actions) > 0 {
		b.WriteString("Actions:\n")
		for i, a := range p.Actions {
			fmt.Fprintf(&b, "  %d. %s: %s\n", i+1, a.Help().Key, a.Help().Desc)
		}
	}
	return b.String()
}

// read turns a line into key presses, or says why it cannot.
func (r *reader) read(line string, p ui.Page) ([]tea.Msg, string) {
	line = strings.TrimRight(line, "\r")
	if p.Typing {
		if keys, ok := strings.CutPrefix(line, "!"); ok {
			return keyPresses(strings.Fields(keys))
		}
		msgs := []tea.Msg{ui.KeyPress("ctrl+u")}
		if line == "" {
			msgs = nil
		}
		for _, ch := range line {
			name := string(ch)
			if ch == ' ' {
				name = "space"
			}
			msgs = append(msgs, ui.KeyPress(name))
		}
		return append(msgs, ui.KeyPress("enter")), ""
	}
	line = strings.TrimSpace(line)
	if keys, ok := strings.CutPrefix(line, "!"); ok && keys != "" {
		return keyPresses(strings.Fields(keys)) // keys, as in a text field
	}
	if n, err := strconv.Atoi(line); err == nil {
		if n < 1 || n > len(p.Actions) {
			return nil, fmt.Sprintf("There is no action %d: the list goes from 1 to %d.", n, len(p.Actions))
		}
		return []tea.Msg{ui.KeyPress(p.Actions[n-1].Keys()[0])}, ""
	}
	if name, ok := strings.CutPrefix(line, ":"); ok && name != "" {
		msgs := []tea.Msg{ui.KeyPress(":")}
		for _, ch := range name {
			msgs = append(msgs, ui.KeyPress(string(ch)))
		}
		return append(msgs, ui.KeyPress("enter")), ""
	}
	if line == "" {
		// An empty line is enter where enter is an action (sign in as
		// the account selected, open the row), as on a terminal.
		for _, action := range p.Actions {
			if slices.Contains(action.Keys(), "enter") {
				return []tea.Msg{ui.KeyPress("enter")}, ""
			}
		}
		return nil, "An empty line does nothing here: type an action's number or its key."
	}
	return keyPresses(strings.Fields(line))
}

// keyPresses are the presses of key names, or why one is not a key.
func keyPresses(names []string) ([]tea.Msg, string) {
	if len(names) == 0 {
		return nil, "No key given after !."
	}
	msgs := make([]tea.Msg, 0, len(names))
	for _, name := range names {
		if !ui.IsKeyName(name) {
			return nil, fmt.Sprintf("%q is not a key: type an action's number, or a key such as f, enter, esc or ctrl+s.", name)
		}
		msgs = append(msgs, ui.KeyPress(name))
	}
	return msgs, ""
}
