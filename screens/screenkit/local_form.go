package screenkit

import (
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
)

// LocalForm is a form whose submission is kept on this machine (a
// budget, a note, the guard rules), opened as the one FormLayer: a
// submit runs Save's keeping in a command (the file is written there,
// not in Update) and its answer closes the form with Saved's notice, or
// shows the problem under it with what was typed kept.
type LocalForm struct {
	Form *form.Form
	// Requests owns the form (a screen's): esc while saving cancels.
	Requests ui.Owner
	// Save checks the form and returns what keeps it, or nil when the
	// form shows what is wrong (form.SetErrors). What keeps it answers
	// the message the screen takes once it is kept (nil: none) or why it
	// could not be.
	Save func(f *form.Form) func() (tea.Msg, error)
	// Saved is the notice after a save.
	Saved string
}

// localSavedMsg is a save's answer, addressed to one form.
type localSavedMsg struct {
	id   uint64
	then tea.Msg
	err  error
}

var localFormIDs atomic.Uint64

// OpenLocalForm opens the form as a layer over the screen, focused.
func OpenLocalForm(lf LocalForm) tea.Cmd {
	id := localFormIDs.Add(1)
	l := &FormLayer{Form: lf.Form, Requests: lf.Requests,
		Width: func(width int) int { return min(max(width-2, 20), 72) },
		Submit: func(f *form.Form) (tea.Cmd, bool) {
			if f.Busy() {
				return nil, false
			}
			save := lf.Save(f)
			if save == nil {
				return nil, false
			}
			f.SetBusy(true)
			return func() tea.Msg {
				then, err := save()
				return localSavedMsg{id: id, then: then, err: err}
			}, false
		},
		Answer: func(f *form.Form, msg tea.Msg) (tea.Cmd, bool) {
			saved, ok := msg.(localSavedMsg)
			if !ok || saved.id != id {
				return nil, false
			}
			f.SetBusy(false)
			if saved.err != nil {
				f.SetProblem(saved.err.Error())
				return nil, false
			}
			notice := ui.Notify(theme.ToneOK, lf.Saved)
			if saved.then == nil {
				return notice, true
			}
			then := saved.then
			return tea.Batch(notice, func() tea.Msg { return then }), true
		},
	}
	return l.Open(lf.Form.Focus())
}
