package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// The go-to prompt (:) opens a screen by name: ":ev" and enter opens
// Events. It reaches every screen, those past the tenth too (no number
// key), and it is how the demo and the tests name a screen without
// depending on its place in the navigation.

// goToPrompt is the open prompt: what has been typed so far.
type goToPrompt struct {
	query string
	keys  goToKeyMap
}

// goToKeyMap is the keys of the open prompt; any other printable key types.
type goToKeyMap struct {
	Open, Cancel, Erase key.Binding
}

func newGoToKeys() goToKeyMap {
	return goToKeyMap{
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Erase:  key.NewBinding(key.WithKeys("backspace"), key.WithHelp("backspace", "erase")),
	}
}

// ShortHelp implements help.KeyMap.
func (k goToKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Open, k.Cancel, k.Erase} }

// FullHelp implements help.KeyMap.
func (k goToKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// openGoTo opens the prompt, empty.
func (r *Root) openGoTo() {
	r.goTo = &goToPrompt{keys: newGoToKeys()}
	r.focusNav = false
}

// goToKey handles a key while the prompt is open.
func (r *Root) goToKey(msg tea.KeyPressMsg) tea.Cmd {
	p := r.goTo
	switch {
	case key.Matches(msg, p.keys.Cancel):
		r.goTo = nil
	case key.Matches(msg, p.keys.Open):
		r.goTo = nil
		if i, ok := r.screenNamed(p.query); ok {
			return r.navigate(r.screens[i].ID())
		}
		return Notify(theme.ToneWarn, fmt.Sprintf("no screen is called %q", p.query))
	case key.Matches(msg, p.keys.Erase):
		if q := []rune(p.query); len(q) > 0 {
			p.query = string(q[:len(q)-1])
		}
	default:
		if text := msg.Key().Text; text != "" && len([]rune(p.query)) < 32 {
			p.query += sanitize.Text(text)
		}
	}
	return nil
}

// screenNamed is the screen a typed name means: the first whose title
// starts with it, else the first whose title holds it, letter case aside.
func (r *Root) screenNamed(query string) (int, bool) {
	q := strings.ToLower(strings.TrimSpace(query))
	if q == "" {
		return 0, false
	}
	for i, s := range r.screens {
		if strings.HasPrefix(strings.ToLower(s.Title()), q) {
			return i, true
		}
	}
	for i, s := range r.screens {
		if strings.Contains(strings.ToLower(s.Title()), q) {
			return i, true
		}
	}
	return 0, false
}

// renderGoTo is the footer while the prompt is open: what was typed, the
// screen enter would open, and the prompt's keys.
func (r *Root) renderGoTo() string {
	line := r.st.KeyHint.Render("go to:") + " " + r.goTo.query + "▏"
	if i, ok := r.screenNamed(r.goTo.query); ok {
		line += " " + r.st.Muted.Render("→ "+r.screens[i].Title())
	} else if r.goTo.query != "" {
		line += " " + r.st.Muted.Render("(no such screen)")
	}
	return line + "   " + r.fitFooter(r.goTo.keys.ShortHelp(), max(r.width-CellWidth(line)-3, 0))
}
