package consent

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
)

// formPanel is what the consent screen's form sub-views share: the form,
// its keys, and esc that cancels a change on its way (the form stays, with
// what was typed) or else closes the panel.
type formPanel struct {
	form     *ui.Form
	requests ui.Owner
}

// update runs the form; closed means esc closed the panel.
func (p formPanel) update(msg tea.Msg) (event ui.FormEvent, closed bool, cmd tea.Cmd) {
	event, cmd = p.form.Update(msg)
	if event == ui.FormCancel {
		if p.form.CancelIfBusy(p.requests) {
			return ui.FormNothing, false, nil
		}
		return event, true, nil
	}
	return event, false, cmd
}

// SetSize implements ui.SubView: forms take the width, and grow down.
func (p formPanel) SetSize(width, _ int) { p.form.SetWidth(width) }

// KeyMap implements ui.SubView.
func (p formPanel) KeyMap() help.KeyMap { return p.form.KeyMap() }

// CapturesKeys implements ui.SubView: the inputs take every key.
func (p formPanel) CapturesKeys() bool { return true }

// sending marks the form busy while its confirmed change runs.
func (p formPanel) sending() { p.form.SetBusy(true) }
