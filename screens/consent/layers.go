package consent

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui/form"
)

// A set's detail, the audit trail and the look-up and change forms are
// layers on the root's stack (ui.OpenLayer): the screen keeps no field
// for what is open. Each belongs to the main view it was opened over: a
// look-up or a new set shows the main view again (s.view moves on), and
// every layer opened before reports Done. A form opened from a set's
// detail sits over it, so leaving the form shows the detail again.

// panel is what the screen's own layers share: the screen, the main view
// they belong to, their size, and whether they closed themselves.
type panel struct {
	s             *Screen
	view          int
	width, height int
	closed        bool
}

func (s *Screen) newPanel() panel { return panel{s: s, view: s.view} }

// Done implements layer.Layer: closed, or the main view it was over is
// gone.
func (p *panel) Done() bool { return p.closed || p.view != p.s.view }

// SetSize implements layer.Layer.
func (p *panel) SetSize(width, height int) { p.width, p.height = width, height }

// showMainView closes every layer open over the screen.
func (s *Screen) showMainView() { s.view++ }

// formLayer is one of the screen's forms: a screenkit.FormLayer that
// belongs to the main view it was opened over. number tells a change form
// the answers of the change it asked for (changeSending, changeAnswered).
type formLayer struct {
	*screenkit.FormLayer
	s      *Screen
	view   int
	number int
	// edited, if set, follows what was typed (the create form's policy).
	edited func(f *form.Form)
	// refused, if set, learns why the gateway refused the change.
	refused func(err error)
}

// newFormLayer builds a form layer (opened with ui.OpenLayer, not the
// inner FormLayer's Open, so that Done and Update are these) drawn by draw (nil: the form alone in
// the body's width) whose checked submit goes to submit.
func (s *Screen) newFormLayer(f *form.Form, submit func(*form.Form) (tea.Cmd, bool), draw func(*form.Form) string) *formLayer {
	s.forms++
	l := &formLayer{s: s, view: s.view, number: s.forms}
	l.FormLayer = &screenkit.FormLayer{Form: f, Requests: s.Requests, Submit: submit, Draw: draw, KeepOnEsc: true,
		Width: func(width int) int { return width }, Answer: l.answer}
	return l
}

// Update implements layer.Layer: the form's, then what was typed is
// followed.
func (l *formLayer) Update(msg tea.Msg) tea.Cmd {
	cmd := l.FormLayer.Update(msg)
	if l.edited != nil {
		l.edited(l.Form)
	}
	return cmd
}

// Done implements layer.Layer.
func (l *formLayer) Done() bool { return l.FormLayer.Done() || l.view != l.s.view }

// changeAnswered says how the change asked from form number form ended.
type changeAnswered struct {
	form int
	err  error
	what string
}

// answer follows the change this form asked for: busy from the moment it
// runs (the confirmation reaches the screen first, then the layers); a
// refusal shown on the form, what was typed kept; a success closes it.
func (l *formLayer) answer(f *form.Form, msg tea.Msg) (tea.Cmd, bool) {
	if l.s.asking == l.number && l.s.change.Running() && !f.Busy() {
		f.SetBusy(true)
	}
	switch msg := msg.(type) {
	case changeAnswered:
		if msg.form != l.number {
			return nil, false
		}
		f.SetBusy(false)
		if msg.err == nil {
			return nil, true
		}
		if l.refused != nil {
			l.refused(msg.err)
		}
		return formRefused(f, msg.what, msg.err), false
	}
	return nil, false
}

// tell is a command that delivers msg to the screen's layers.
func tell(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
