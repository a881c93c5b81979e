package screenkit

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/layer"
)

// FormLayer is a screen's open form as a layer on the root's stack, so
// the screen keeps no field for it. The screen says what a submit does,
// what its request's answer does to the form, and how the body looks with
// the form in it; the layer does the rest the same way on every screen:
// keys, pastes and clicks to the form, esc, its size and its key map.
type FormLayer struct {
	// Form is the form; what was typed stays in it after a failed request.
	Form *form.Form
	// Requests owns the form's request: esc cancels it.
	Requests ui.Owner
	// Submit handles a submit whose fields passed their checks: it sends
	// the request, asks for a confirmation, or sets errors on the form;
	// done closes the form.
	Submit func(f *form.Form) (cmd tea.Cmd, done bool)
	// Answer, if set, takes a message that is not input (the request's
	// answer); done closes the form.
	Answer func(f *form.Form, msg tea.Msg) (cmd tea.Cmd, done bool)
	// Draw, if set, draws the whole body with the form in it (the screen
	// around it), placed in the body's size as a screen's View is; without
	// it the form is drawn alone at the top.
	Draw func(f *form.Form) string
	// Width, if set, is the form's width in a body width wide; without it
	// the form takes the width less a margin.
	Width func(width int) int
	// KeepOnEsc makes esc over a request on its way cancel it and keep the
	// form with what was typed (a confirmed change whose outcome is told);
	// without it esc cancels the request and closes the form (a read, a
	// token, a test event: abandonable).
	KeepOnEsc bool

	width, height int
	closed        bool
}

var _ layer.Typist = (*FormLayer)(nil)

// Open is the command that opens the layer over the screen returning it,
// sized, with focus as the form's first focus (Focus or FocusNothing).
func (l *FormLayer) Open(focus tea.Cmd) tea.Cmd { return ui.OpenLayer(l, focus) }

// Close closes the form, for a screen whose answer arrives elsewhere.
func (l *FormLayer) Close() { l.closed = true }

// Update implements layer.Layer.
func (l *FormLayer) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		return l.key(msg)
	case ui.BodyMouseMsg:
		return l.click(msg)
	case tea.PasteMsg:
		_, cmd := l.Form.Update(msg)
		return cmd
	}
	if l.Answer != nil {
		cmd, done := l.Answer(l.Form, msg)
		l.closed = l.closed || done
		if cmd != nil || done {
			return cmd
		}
	}
	return ToForm(l.Form, msg) // a cursor blink, a theme change
}

// key runs the form: esc cancels what is on its way (and closes, or
// keeps the form), a submit goes to the screen.
func (l *FormLayer) key(msg tea.KeyPressMsg) tea.Cmd {
	event, cmd := l.Form.Update(msg)
	switch event {
	case form.Cancel:
		if l.Form.CancelIfBusy(l.Requests) && l.KeepOnEsc {
			return nil
		}
		l.closed = true
		return nil
	case form.Submit:
		cmd, done := l.Submit(l.Form)
		l.closed = l.closed || done
		return cmd
	}
	return cmd
}

// click focuses the field drawn where the body was clicked, found by the
// form's first line in the drawing.
func (l *FormLayer) click(msg ui.BodyMouseMsg) tea.Cmd {
	if msg.Wheel != 0 {
		return nil
	}
	top, left, ok := DrawnAt(l.View(), l.Form.View())
	if !ok || msg.X < left {
		return nil
	}
	return ClickForm(l.Form, top, msg)
}

// SetSize implements layer.Layer: forms take the width and grow down.
func (l *FormLayer) SetSize(width, height int) {
	l.width, l.height = width, height
	if l.Width != nil {
		l.Form.SetWidth(l.Width(width))
		return
	}
	l.Form.SetWidth(max(width-2, 20))
}

// View implements layer.Layer.
func (l *FormLayer) View() string {
	if l.Draw != nil {
		return l.Draw(l.Form)
	}
	return Place(l.Form.View(), l.width, l.height)
}

// KeyMap implements layer.Layer.
func (l *FormLayer) KeyMap() help.KeyMap { return l.Form.KeyMap() }

// Done implements layer.Layer.
func (l *FormLayer) Done() bool { return l.closed }

// CapturesKeys implements layer.Typist: the inputs take every key.
func (l *FormLayer) CapturesKeys() bool { return true }

// TypingPlain implements ui.PlainTyping: a secret's field is not.
func (l *FormLayer) TypingPlain() bool { return l.Form.TypingPlain() }
