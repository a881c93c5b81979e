package screenkit

import (
	"sync/atomic"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/layer"
)

// FormLayer is the one form opened as a layer for what the app keeps on
// this machine (a budget, a note, the guard rules): the form takes the
// keys; a submit runs Save in a command (the file is written there, not
// in Update), and its answer closes the layer with Saved's notice, or
// shows the problem under the form with what was typed kept.
type FormLayer struct {
	Styles *theme.Styles
	Title  string
	Form   *form.Form
	// Save checks the form and returns what keeps it, run in a command,
	// or nil when the form shows what is wrong (form.SetErrors). What it
	// keeps answers the message the screen takes once it is kept (nil:
	// none) or why it could not be.
	Save func(f *form.Form) func() (tea.Msg, error)
	// Saved is the notice after a save.
	Saved string

	id            uint64
	width, height int
	closed        bool
}

// formSavedMsg is a save's answer, addressed to one layer.
type formSavedMsg struct {
	id   uint64
	then tea.Msg
	err  error
}

var formLayerIDs atomic.Uint64

var _ layer.Typist = (*FormLayer)(nil)

// OpenFormLayer opens the form, focused on its first field.
func OpenFormLayer(l *FormLayer) tea.Cmd {
	l.id = formLayerIDs.Add(1)
	l.Form.SetWidth(72)
	return tea.Batch(ui.OpenLayer(l), l.Form.Focus())
}

// Update implements layer.Layer.
func (l *FormLayer) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case formSavedMsg:
		if msg.id != l.id {
			return nil
		}
		l.Form.SetBusy(false)
		if msg.err != nil {
			l.Form.SetProblem(msg.err.Error())
			return nil
		}
		l.closed = true
		notice := ui.Notify(theme.ToneOK, l.Saved)
		if msg.then == nil {
			return notice
		}
		then := msg.then
		return tea.Batch(notice, func() tea.Msg { return then })
	case ui.BodyMouseMsg:
		return ClickForm(l.Form, 2, msg)
	case tea.KeyPressMsg, tea.PasteMsg:
	default:
		return ToForm(l.Form, msg)
	}
	event, cmd := l.Form.Update(msg)
	switch event {
	case form.Cancel:
		if !l.Form.Busy() {
			l.closed = true
		}
		return nil
	case form.Submit:
		save := l.Save(l.Form)
		if save == nil || l.Form.Busy() {
			return nil
		}
		l.Form.SetBusy(true)
		id := l.id
		return func() tea.Msg {
			then, err := save()
			return formSavedMsg{id: id, then: then, err: err}
		}
	}
	return cmd
}

// SetSize implements layer.Layer: the form takes the width and grows down.
func (l *FormLayer) SetSize(width, height int) {
	l.width, l.height = width, height
	l.Form.SetWidth(min(width, 72))
	l.Form.SetHeight(max(height-2, 4))
}

// View implements layer.Layer: the title, then the form.
func (l *FormLayer) View() string {
	return Place(l.Styles.Title.Render(l.Title)+"\n\n"+l.Form.View(), l.width, l.height)
}

// KeyMap implements layer.Layer.
func (l *FormLayer) KeyMap() help.KeyMap { return l.Form.KeyMap() }

// Done implements layer.Layer.
func (l *FormLayer) Done() bool { return l.closed }

// CapturesKeys implements layer.Typist: the inputs take every key.
func (l *FormLayer) CapturesKeys() bool { return true }

// TypingPlain implements ui.PlainTyping.
func (l *FormLayer) TypingPlain() bool { return l.Form.TypingPlain() }
