package ui

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/domain/recordcommand"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// commandPane is the layer that shows a user's command running, then its
// output and exit status; esc stops a command still running and closes.
type commandPane struct {
	st       *theme.Styles
	prepared recordcommand.Prepared
	seq      int
	cancel   context.CancelFunc
	result   *recordcommand.Result
	lines    []string
	offset   int
	keys     commandPaneKeys

	width, height int
	done          bool
}

// commandPaneKeys scroll the output and close the pane.
type commandPaneKeys struct {
	ScrollKeyMap
	Close key.Binding
}

func newCommandPane(st *theme.Styles, prepared recordcommand.Prepared, seq int, cancel context.CancelFunc) *commandPane {
	return &commandPane{st: st, prepared: prepared, seq: seq, cancel: cancel, keys: commandPaneKeys{
		ScrollKeyMap: NewScrollKeys(),
		Close:        key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "close (stops it while it runs)")),
	}}
}

// finish takes the command's end: its output, sanitized, a line each.
func (p *commandPane) finish(result recordcommand.Result) {
	p.result = &result
	text := strings.TrimRight(sanitize.Multiline(string(result.Output)), "\n")
	p.lines = nil
	if text != "" {
		p.lines = strings.Split(text, "\n")
	}
	if result.Cut {
		p.lines = append(p.lines, fmt.Sprintf("… (output cut at %d KiB)", recordcommand.MaxOutput>>10))
	}
}

// Update implements layer.Layer.
func (p *commandPane) Update(msg tea.Msg) tea.Cmd {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	if key.Matches(press, p.keys.Close) {
		p.cancel()
		p.done = true
		return nil
	}
	rows := p.outputRows()
	if to, moved := p.keys.Move(press, p.offset, rows, max(len(p.lines)-rows, 0)); moved {
		p.offset = min(max(to, 0), max(len(p.lines)-rows, 0))
	}
	return nil
}

// outputRows is how many output lines fit under the pane's head.
func (p *commandPane) outputRows() int { return max(p.height-4, 1) }

// SetSize implements layer.Layer.
func (p *commandPane) SetSize(width, height int) { p.width, p.height = width, height }

// View implements layer.Layer: the status, the command, and the output.
func (p *commandPane) View() string {
	head := []string{p.st.Title.Render(ansi.Truncate(sanitize.Text(p.prepared.Name)+" — "+p.status(), p.width, "…")),
		p.st.Muted.Render(ansi.Truncate("$ "+sanitize.Text(p.prepared.Display()), p.width, "…")), ""}
	body := p.lines
	if p.result != nil && len(body) == 0 {
		body = []string{p.st.Muted.Render("(no output)")}
	}
	rows := p.outputRows()
	end := min(p.offset+rows, len(body))
	for _, line := range body[min(p.offset, end):end] {
		head = append(head, ansi.Truncate(line, p.width, "…"))
	}
	for len(head) < p.height {
		head = append(head, "")
	}
	return strings.Join(head[:max(p.height, 0)], "\n")
}

// status is "running…" or how it ended.
func (p *commandPane) status() string {
	switch {
	case p.result == nil:
		return "running…"
	case p.result.Err != nil:
		return "did not finish: " + p.result.Err.Error()
	}
	return fmt.Sprintf("exit status %d (%s)", p.result.ExitCode, p.result.Duration.Round(1e6))
}

// KeyMap implements layer.Layer.
func (p *commandPane) KeyMap() help.KeyMap { return p.keys }

// Done implements layer.Layer.
func (p *commandPane) Done() bool { return p.done }

// ShortHelp implements help.KeyMap.
func (k commandPaneKeys) ShortHelp() []key.Binding { return []key.Binding{k.Close, k.Up, k.Down} }

// FullHelp implements help.KeyMap.
func (k commandPaneKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Close}, {k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}}
}
