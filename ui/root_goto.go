package ui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/layer"
	"cardterm/ui/sanitize"
)

// The go-to prompt (:) opens a screen by name: ":ev" and enter opens
// Events. It reaches every screen, those past the tenth too (no number
// key), and it is how the demo and the tests name a screen without
// depending on its place in the navigation.

// goToPrompt is the open prompt, a layer drawn in the footer's line:
// what has been typed so far. open is the root's answer to enter.
type goToPrompt struct {
	query string
	keys  goToKeyMap
	open  func(query string) tea.Cmd
	done  bool
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
	r.openRootLayer(&goToPrompt{keys: newGoToKeys(), open: r.goToNamed}, layer.Prompt)
	r.focusNav = false
}

// Update implements layer.Layer: printable keys type, enter opens.
func (p *goToPrompt) Update(msg tea.Msg) tea.Cmd {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(press, p.keys.Cancel):
		p.done = true
	case key.Matches(press, p.keys.Open):
		p.done = true
		return p.open(p.query)
	case key.Matches(press, p.keys.Erase):
		if q := []rune(p.query); len(q) > 0 {
			p.query = string(q[:len(q)-1])
		}
	default:
		if text := press.Key().Text; text != "" && len([]rune(p.query)) < 32 {
			p.query += sanitize.Text(text)
		}
	}
	return nil
}

// SetSize implements layer.Layer: the prompt takes the footer's line.
func (p *goToPrompt) SetSize(int, int) {}

// View implements layer.Layer: nothing over the body; the footer draws
// the prompt (renderGoTo).
func (p *goToPrompt) View() string { return "" }

// KeyMap implements layer.Layer.
func (p *goToPrompt) KeyMap() help.KeyMap { return p.keys }

// Done implements layer.Layer.
func (p *goToPrompt) Done() bool { return p.done }

// Floats implements layer.Floater: the body shows under the prompt.
func (p *goToPrompt) Floats() {}

// CapturesKeys implements layer.Typist: every letter types.
func (p *goToPrompt) CapturesKeys() bool { return true }

// goToNamed opens the screen the prompt names.
func (r *Root) goToNamed(query string) tea.Cmd {
	if i, ok := r.screenNamed(query); ok {
		return r.navigate(r.screens[i].ID())
	}
	return Notify(theme.ToneWarn, fmt.Sprintf("no screen is called %q", query))
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
func (r *Root) renderGoTo(p *goToPrompt) string {
	line := r.st.KeyHint.Render("go to:") + " " + p.query + "▏"
	if i, ok := r.screenNamed(p.query); ok {
		line += " " + r.st.Muted.Render("→ "+r.screens[i].Title())
	} else if p.query != "" {
		line += " " + r.st.Muted.Render("(no such screen)")
	}
	return line + "   " + r.fitFooter(p.keys.ShortHelp(), max(r.width-CellWidth(line)-3, 0))
}
