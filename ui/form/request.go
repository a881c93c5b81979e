package form

import (
	"context"

	"cardterm/ui"

	tea "charm.land/bubbletea/v2"
)

// CancelIfBusy is esc on a form whose request may be on its way: when the
// form is busy, the owner's requests are cancelled so that no answer comes
// back for a form the screen closes (or keeps, with what was typed). It
// reports whether the form was busy.
func (f *Form) CancelIfBusy(owner ui.Owner) bool {
	if !f.busy {
		return false
	}
	owner.Cancel()
	return true
}

// SubmitRequest sends what a form asks for: fn starts as the owner's
// request, its id goes to *id for the screen to match the answer, and the
// form stays busy (what was typed kept) until the screen has that answer.
// A second submit while the form is busy sends nothing and leaves *id.
func SubmitRequest[T any](f *Form, owner ui.Owner, id *ui.RequestID, fn func(ctx context.Context) (T, error)) tea.Cmd {
	if f.busy {
		return nil
	}
	f.busy = true
	return ui.Start(owner, id, fn)
}

// HandleKey gives a key to a form whose requests may be abandoned (reads,
// tokens, test events): esc cancels the one on its way and reports closed,
// for the screen to drop the form; a submit returns submit's command; any
// other key edits the form.
func (f *Form) HandleKey(msg tea.KeyPressMsg, owner ui.Owner, submit func() tea.Cmd) (cmd tea.Cmd, closed bool) {
	event, cmd := f.Update(msg)
	switch event {
	case Cancel:
		f.CancelIfBusy(owner)
		return nil, true
	case Submit:
		return submit(), false
	}
	return cmd, false
}
