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

// goToPrompt is the open prompt, a layer: what has been typed so far, the
// palette's rows it matches (root_palette.go) and the one enter runs.
type goToPrompt struct {
	query   string
	keys    goToKeyMap
	st      *theme.Styles
	entries func(query string) []paletteEntry
	run     func(paletteEntry) tea.Cmd
	rows    []paletteEntry
	cursor  int
	width   int
	height  int
	done    bool
}

// goToKeyMap is the keys of the open prompt; any other printable key types.
type goToKeyMap struct {
	Open, Cancel, Erase, Up, Down key.Binding
}

func newGoToKeys() goToKeyMap {
	return goToKeyMap{
		Open:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Erase:  key.NewBinding(key.WithKeys("backspace"), key.WithHelp("backspace", "erase")),
		Up:     key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "previous")),
		Down:   key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "next")),
	}
}

// ShortHelp implements help.KeyMap.
func (k goToKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Open, k.Cancel, k.Up, k.Down, k.Erase}
}

// FullHelp implements help.KeyMap.
func (k goToKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// openGoTo opens the prompt, empty, listing every screen and action.
func (r *Root) openGoTo() {
	p := &goToPrompt{keys: newGoToKeys(), st: r.st, entries: r.paletteEntries, run: r.runEntry}
	p.rows = p.entries("")
	r.openRootLayer(p, layer.Prompt)
	r.focusNav = false
}

// selected is the row enter runs.
func (p *goToPrompt) selected() (paletteEntry, bool) {
	if p.cursor < len(p.rows) {
		return p.rows[p.cursor], true
	}
	return paletteEntry{}, false
}

// Update implements layer.Layer: printable keys type, the arrows choose,
// enter runs the row chosen.
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
		if entry, ok := p.selected(); ok {
			return p.run(entry)
		}
		return Notify(theme.ToneWarn, fmt.Sprintf("no screen or action is called %q", p.query))
	case key.Matches(press, p.keys.Up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(press, p.keys.Down):
		p.cursor = max(min(p.cursor+1, len(p.rows)-1), 0)
	case key.Matches(press, p.keys.Erase):
		if q := []rune(p.query); len(q) > 0 {
			p.query = string(q[:len(q)-1])
		}
		p.rows, p.cursor = p.entries(p.query), 0
	default:
		if text := press.Key().Text; text != "" && len([]rune(p.query)) < 32 {
			p.query += sanitize.Text(text)
			p.rows, p.cursor = p.entries(p.query), 0
		}
	}
	return nil
}

// SetSize implements layer.Layer: the rows float over the body; the
// typed text is in the footer's line.
func (p *goToPrompt) SetSize(width, height int) { p.width, p.height = width, height }

// KeyMap implements layer.Layer.
func (p *goToPrompt) KeyMap() help.KeyMap { return p.keys }

// Done implements layer.Layer.
func (p *goToPrompt) Done() bool { return p.done }

// Floats implements layer.Floater: the body shows under the prompt.
func (p *goToPrompt) Floats() {}

// CapturesKeys implements layer.Typist: every letter types.
func (p *goToPrompt) CapturesKeys() bool { return true }

// renderGoTo is the footer while the prompt is open: what was typed, the
// row enter would run, and the prompt's keys.
func (r *Root) renderGoTo(p *goToPrompt) string {
	line := r.st.KeyHint.Render("go to:") + " " + p.query + "▏"
	if entry, ok := p.selected(); ok {
		line += " " + r.st.Muted.Render("→ "+strings.TrimPrefix(entry.title, "go to "))
	} else if p.query != "" {
		line += " " + r.st.Muted.Render("(no such screen or action)")
	}
	return line + "   " + r.fitFooter(p.keys.ShortHelp(), max(r.width-CellWidth(line)-3, 0))
}
