package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/domain/recordcommand"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// commandChooser is the layer that offers a record's commands when there
// are several: enter asks to run the one chosen.
type commandChooser struct {
	st       *theme.Styles
	noun     string // what a record is: "transaction"
	commands []recordcommand.Command
	choose   func(recordcommand.Command) tea.Cmd
	cursor   int
	keys     chooserKeys
	width    int
	done     bool
}

type chooserKeys struct{ Up, Down, Choose, Cancel key.Binding }

func (k chooserKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Choose, k.Cancel, k.Up, k.Down}
}
func (k chooserKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

func newCommandChooser(st *theme.Styles, noun string, commands []recordcommand.Command, choose func(recordcommand.Command) tea.Cmd) *commandChooser {
	return &commandChooser{st: st, noun: noun, commands: commands, choose: choose, keys: chooserKeys{
		Up: UpKey(), Down: DownKey(),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run…")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}}
}

// Update implements layer.Layer.
func (c *commandChooser) Update(msg tea.Msg) tea.Cmd {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(press, c.keys.Cancel):
		c.done = true
	case key.Matches(press, c.keys.Up):
		c.cursor = max(c.cursor-1, 0)
	case key.Matches(press, c.keys.Down):
		c.cursor = min(c.cursor+1, len(c.commands)-1)
	case key.Matches(press, c.keys.Choose):
		c.done = true
		return c.choose(c.commands[c.cursor])
	}
	return nil
}

// SetSize implements layer.Layer.
func (c *commandChooser) SetSize(width, _ int) { c.width = width }

// View implements layer.Layer: the commands in a box.
func (c *commandChooser) View() string {
	inner := min(max(c.width-2-c.st.Dialog.GetHorizontalFrameSize(), 10), 60)
	lines := []string{c.st.Title.Render("Run on this " + sanitize.Text(c.noun)), ""}
	for i, command := range c.commands {
		label := ansi.Truncate(sanitize.Text(command.Name), inner-2, "…")
		if i == c.cursor {
			lines = append(lines, c.st.TableSelected.Render("› "+label))
		} else {
			lines = append(lines, "  "+label)
		}
	}
	w := 0
	for _, l := range lines {
		w = max(w, lipgloss.Width(l))
	}
	return c.st.Dialog.Width(w + c.st.Dialog.GetHorizontalFrameSize()).Render(strings.Join(lines, "\n"))
}

// KeyMap implements layer.Layer.
func (c *commandChooser) KeyMap() help.KeyMap { return c.keys }

// Done implements layer.Layer.
func (c *commandChooser) Done() bool { return c.done }

// Floats implements layer.Floater.
func (c *commandChooser) Floats() {}
