// Package uitest drives Bubble Tea models in tests without a terminal: it runs
// commands synchronously, builds key presses by name and renders views as
// plain text for golden files.
package uitest

import (
	"bytes"
	"slices"
	"sync"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"cardterm/ui"
)

// CmdTimeout bounds each command Drive runs; a command still running after it
// (a timer, a long poll) is dropped, its message lost.
var CmdTimeout = 5 * time.Second

// MaxMessages bounds one Drive call, so a model that loops forever fails
// loudly instead of hanging the test.
var MaxMessages = 10000

// Drive feeds msgs to m one at a time; after each it runs the returned
// commands (batches concurrently, sequences in order), feeds their messages
// back, and repeats until nothing is left. Timers and spinner ticks are
// skipped, tea.Quit stops the feeding of that chain. It returns the model.
func Drive(m tea.Model, msgs ...tea.Msg) tea.Model {
	n := 0
	for _, msg := range msgs {
		queue := []tea.Msg{msg}
		for len(queue) > 0 {
			n++
			if n > MaxMessages {
				panic("uitest.Drive: too many messages; the model loops")
			}
			next := queue[0]
			queue = queue[1:]
			var cmd tea.Cmd
			m, cmd = m.Update(next)
			queue = append(queue, Run(cmd)...)
		}
	}
	return m
}

// Run executes cmd as the Bubble Tea runtime would, synchronously, and
// returns the messages it produced in order, batches and sequences expanded.
// Timers, spinner ticks, quit messages and commands that outlive CmdTimeout
// produce nothing.
func Run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil || ui.IsTimer(cmd) {
		return nil
	}
	msg, ok := runWithTimeout(cmd)
	if !ok || msg == nil {
		return nil
	}
	switch msg := msg.(type) {
	case tea.QuitMsg, spinner.TickMsg:
		return nil
	case tea.BatchMsg:
		return runConcurrently(msg)
	}
	if cmds, ok := ui.SequenceCommands(msg); ok {
		var out []tea.Msg
		for _, c := range cmds {
			out = append(out, Run(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

func runConcurrently(cmds []tea.Cmd) []tea.Msg {
	results := make([][]tea.Msg, len(cmds))
	var wg sync.WaitGroup
	for i, c := range cmds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = Run(c)
		}()
	}
	wg.Wait()
	var out []tea.Msg
	for _, r := range results {
		out = append(out, r...)
	}
	return out
}

func runWithTimeout(cmd tea.Cmd) (tea.Msg, bool) {
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		return msg, true
	case <-time.After(CmdTimeout):
		return nil, false
	}
}

// Key builds the key press a terminal would send for a key name as
// key.Matches spells it (ui.KeyPress): "enter", "esc", "shift+tab", "F".
func Key(s string) tea.KeyPressMsg { return ui.KeyPress(s) }

// Keys builds one key press per name, for Drive(m, Keys("j", "j", "enter")...).
func Keys(names ...string) []tea.Msg {
	out := make([]tea.Msg, len(names))
	for i, n := range names {
		out[i] = Key(n)
	}
	return out
}

// Type builds the key presses that type text, one per rune.
func Type(text string) []tea.Msg {
	var out []tea.Msg
	for _, r := range text {
		if r == ' ' {
			out = append(out, Key("space"))
			continue
		}
		out = append(out, Key(string(r)))
	}
	return out
}

// Fill builds the key presses that type each value into a form's fields in
// turn, from the focused one: tab moves on between values.
func Fill(values ...string) []tea.Msg {
	var out []tea.Msg
	for i, value := range values {
		if i > 0 {
			out = append(out, Key("tab"))
		}
		out = append(out, Type(value)...)
	}
	return out
}

// Content is a view's content, whether it is a tea.View or a string.
func Content[V tea.View | string](v V) string {
	switch v := any(v).(type) {
	case tea.View:
		return v.Content
	case string:
		return v
	}
	return ""
}

// Plain is the text of a view with every style removed, for golden files and
// assertions that read the screen.
func Plain[V tea.View | string](v V) string {
	return ansi.Strip(Content(v))
}

// ASCII renders a view in the ASCII colour profile: colours dropped, bold,
// reverse and underline kept, as a no-colour terminal would show it.
func ASCII[V tea.View | string](v V) string {
	var buf bytes.Buffer
	w := &colorprofile.Writer{Forward: &buf, Profile: colorprofile.ASCII}
	_, _ = w.WriteString(Content(v))
	return buf.String()
}

// Golden compares got with testdata/<TestName>/<name>.golden; run the tests
// with -update to rewrite the file (github.com/charmbracelet/x/exp/golden).
func Golden(t *testing.T, name string, got string) {
	t.Helper()
	t.Run(name, func(t *testing.T) {
		t.Helper()
		golden.RequireEqual(t, got)
	})
}

// DecodeHalfBlocks reads a QR code drawn in half-block characters (two
// module rows a line, █ ▀ ▄ dark) back into module rows, cropped to the
// bounding box of the dark modules: the finder patterns sit in three
// corners, so that box is exactly the symbol. Tests use it to prove the
// screen shows the code of the right text.
func DecodeHalfBlocks(lines []string) [][]bool {
	var rows [][]bool
	for _, l := range lines {
		var top, bottom []bool
		for _, r := range l {
			top = append(top, r == '█' || r == '▀')
			bottom = append(bottom, r == '█' || r == '▄')
		}
		rows = append(rows, top, bottom)
	}
	minY, maxY, minX, maxX := -1, -1, -1, -1
	for y, r := range rows {
		for x, dark := range r {
			if !dark {
				continue
			}
			if minY < 0 {
				minY = y
			}
			maxY = y
			if minX < 0 || x < minX {
				minX = x
			}
			maxX = max(maxX, x)
		}
	}
	if minY < 0 {
		return nil
	}
	out := make([][]bool, 0, maxY-minY+1)
	for _, r := range rows[minY : maxY+1] {
		row := make([]bool, maxX-minX+1)
		for x := minX; x <= maxX && x < len(r); x++ {
			row[x-minX] = r[x]
		}
		out = append(out, row)
	}
	return out
}

// SameBits reports whether two module matrices are equal.
func SameBits(a, b [][]bool) bool {
	return slices.EqualFunc(a, b, func(x, y []bool) bool { return slices.Equal(x, y) })
}
