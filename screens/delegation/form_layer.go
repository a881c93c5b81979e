package delegation

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/form"
)

// The token request and the post-approval are forms on the root's stack
// (screenkit.FormLayer): the screen keeps no field for them. A form is
// busy from the moment its confirmed request runs (the confirmation
// reaches the screen first, then the layers); the screen tells it how the
// request ended (tokenAnswer, approvalAnswer).

// formLayer is one of the screen's forms, drawn in the body's height by
// fitForm, which may drop lines under the title: a click is mapped back
// onto the form's own drawing.
type formLayer struct {
	*screenkit.FormLayer
	height int
}

// openFormLayer opens f as a layer whose checked submit goes to submit,
// busy while running says its confirmed request is on its way, and which
// answer follows; then runs once it is open (its focus).
func (s *Screen) openFormLayer(f *form.Form, submit func(*form.Form) tea.Cmd, running func() bool,
	answer func(*form.Form, tea.Msg) (tea.Cmd, bool), then tea.Cmd) tea.Cmd {
	l := &formLayer{}
	l.FormLayer = &screenkit.FormLayer{Form: f, Requests: s.Requests, KeepOnEsc: true,
		Width:  func(width int) int { return width },
		Submit: func(f *form.Form) (tea.Cmd, bool) { return submit(f), false },
		Answer: func(f *form.Form, msg tea.Msg) (tea.Cmd, bool) {
			if running() && !f.Busy() {
				f.SetBusy(true)
			}
			return answer(f, msg)
		},
		Draw: func(f *form.Form) string { return screenkit.Place(fitForm(f.View(), l.height), s.Width, s.Height) },
	}
	return ui.OpenLayer(l, then)
}

// SetSize implements layer.Layer.
func (l *formLayer) SetSize(width, height int) {
	l.height = height
	l.FormLayer.SetSize(width, height)
}

// Update implements layer.Layer: a click goes to the form line drawn
// there, counting the lines fitForm dropped under the title.
func (l *formLayer) Update(msg tea.Msg) tea.Cmd {
	click, ok := msg.(ui.BodyMouseMsg)
	if !ok {
		return l.FormLayer.Update(msg)
	}
	if click.Wheel != 0 {
		return nil
	}
	y := click.Y
	if dropped := screenkit.Height(l.Form.View()) - screenkit.Height(fitForm(l.Form.View(), l.height)); y >= 1 && dropped > 0 {
		y += dropped
	}
	cmd, _ := l.Form.ClickLine(y)
	return cmd
}

// tokenAnswer and approvalAnswer say how the token request and the
// post-approval ended; err nil closes the form.
type (
	tokenAnswer    struct{ err error }
	approvalAnswer struct{ err error }
)

// tell is a command that delivers msg to the screen's layers.
func tell(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }
