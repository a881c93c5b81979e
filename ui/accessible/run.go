// Package accessible runs the app for screen readers and line-by-line
// terminals: no alternate screen, no cursor movement, no animation and no
// colour. Each time the app settles after what the user did, it prints
// what changed as plain lines in reading order (the screen's title, the
// status, the body, a dialog, the latest notice), then the keys that work
// as a numbered list, and reads one line: a number from the list, a key
// name, or (while a text field has the keys) the text to type.
package accessible

import (
	"bufio"
	"context"
	"errors"
	"io"
	"reflect"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// ErrInterrupted is returned when the app ended on ctrl+c (exit status 130).
var ErrInterrupted = errors.New("interrupted")

// Size is the window the app is told it has: wide enough for every
// screen's columns, tall enough that a list shows a page of rows.
var Size = tea.WindowSizeMsg{Width: 100, Height: 50}

// settleQuiet is how long no message may arrive, after the user's line,
// before the app counts as settled; settleLongest bounds the wait when a
// request is slow (the page is printed as it is, saying it waits).
const (
	settleQuiet   = 150 * time.Millisecond
	settleLongest = 20 * time.Second
)

// message is a message for the model and whether it came from a timer
// (a countdown, a poll), or from what a timer's message started.
type message struct {
	msg        tea.Msg
	background bool
}

// runtime runs the model's commands as Bubble Tea's program would, minus
// drawing: every command in a goroutine, batches at once, sequences in
// order, the messages back to the model one at a time.
type runtime struct {
	ctx      context.Context
	messages chan message
}

// start runs cmd; its messages come back on rt.messages.
func (rt *runtime) start(cmd tea.Cmd, background bool) {
	if cmd == nil {
		return
	}
	// A timer only waits: what it brings never delays the page.
	background = background || ui.IsTimer(cmd)
	// cmd runs in the goroutine: `go rt.deliver(cmd(), …)` would run it
	// here, and a timer would stop the app for its whole wait.
	go func() { rt.deliver(cmd(), background) }()
}

// deliver passes a command's message on, expanding batches and sequences
// (ui.SequenceCommands).
func (rt *runtime) deliver(msg tea.Msg, background bool) {
	switch m := msg.(type) {
	case nil, spinner.TickMsg: // no animation
		return
	case tea.BatchMsg:
		for _, c := range m {
			rt.start(c, background)
		}
		return
	}
	if cmds, ok := ui.SequenceCommands(msg); ok {
		for _, c := range cmds {
			if c != nil {
				rt.deliver(c(), background)
			}
		}
		return
	}
	if text, ok := clipboardText(msg); ok {
		// No terminal to hand the clipboard to: the value is said
		// instead, to select and copy from the console.
		msg = copiedMsg(text)
	}
	select {
	case rt.messages <- message{msg: msg, background: background}:
	case <-rt.ctx.Done():
	}
}

// copiedMsg is what a copy put on the clipboard, to be said.
type copiedMsg string

// clipboardText is the text of tea.SetClipboard's message, whose type is
// unexported (a string underneath).
func clipboardText(msg tea.Msg) (string, bool) {
	t := reflect.TypeOf(msg)
	if t == nil || t.Kind() != reflect.String || t.PkgPath() != reflect.TypeOf(tea.QuitMsg{}).PkgPath() || t.Name() != "setClipboardMsg" {
		return "", false
	}
	return reflect.ValueOf(msg).String(), true
}

// Run runs root until the user quits (nil), presses ctrl+c
// (ErrInterrupted) or the input ends (nil, as q would).
func Run(ctx context.Context, root *ui.Root, in io.Reader, out io.Writer) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rt := &runtime{ctx: ctx, messages: make(chan message, 64)}
	lines := make(chan string)
	go func() {
		defer close(lines)
		scanner := bufio.NewScanner(in)
		scanner.Buffer(make([]byte, 64*1024), 64*1024)
		for scanner.Scan() {
			select {
			case lines <- scanner.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	reader := newReader(out)
	update := func(m message) error {
		if text, ok := m.msg.(copiedMsg); ok {
			reader.say("Copied: " + sanitize.Text(string(text)))
			return nil
		}
		_, cmd := root.Update(m.msg)
		switch m.msg.(type) {
		case tea.QuitMsg:
			return errQuit
		case tea.InterruptMsg:
			return ErrInterrupted
		}
		rt.start(cmd, m.background)
		return nil
	}
	rt.start(root.Init(), false)
	if err := update(message{msg: Size}); err != nil {
		return finish(err)
	}
	for {
		if err := settle(ctx, rt, root, update); err != nil {
			return finish(err)
		}
		reader.print(root.Page())
		// Messages keep coming while the user reads (a poll, a countdown,
		// a delivery): they are handled, and a new notice is said at once.
		for waiting := true; waiting; {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case m := <-rt.messages:
				if err := update(m); err != nil {
					return finish(err)
				}
				// What the user's own action brought late (a slow
				// answer, a delivery) is read out again; a timer's
				// only when it says something.
				if m.background {
					reader.sayNotices(root.Page())
				} else {
					reader.reprint(root.Page())
				}
			case line, ok := <-lines:
				if !ok {
					return nil // the input ended: as q
				}
				msgs, complaint := reader.read(line, root.Page())
				if complaint != "" {
					reader.say(complaint)
					reader.prompt(root.Page())
					continue
				}
				for _, msg := range msgs {
					if err := update(message{msg: msg}); err != nil {
						return finish(err)
					}
				}
				waiting = false
			}
		}
	}
}

// errQuit ends Run without an error.
var errQuit = errors.New("quit")

func finish(err error) error {
	if errors.Is(err, errQuit) {
		return nil
	}
	return err
}

// settle handles messages until the user's action is done: no gateway
// request is in flight and no message but a timer's came for
// settleQuiet; at most settleLongest.
func settle(ctx context.Context, rt *runtime, root *ui.Root, update func(message) error) error {
	deadline := time.NewTimer(settleLongest)
	defer deadline.Stop()
	quiet := time.NewTimer(settleQuiet)
	defer quiet.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-deadline.C:
			return nil
		case m := <-rt.messages:
			if err := update(m); err != nil {
				return err
			}
			if !m.background {
				quiet.Reset(settleQuiet)
			}
		case <-quiet.C:
			if !root.Waiting() {
				return nil
			}
			quiet.Reset(settleQuiet)
		}
	}
}
