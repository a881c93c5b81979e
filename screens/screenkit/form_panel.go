package screenkit

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
	"cardterm/ui/form"
)

// FormPanel is what a screen's form sub-views share: the form, the owner of
// the request it sends, its keys, and esc that cancels that request while it
// is on its way (the form stays, with what was typed) or else closes the
// panel. A sub-view embeds it and adds its Update and View.
type FormPanel struct {
	Form     *form.Form
	Requests ui.Owner
}

// HandleForm runs the form; closed means esc closed the panel.
func (p FormPanel) HandleForm(msg tea.Msg) (event form.Event, closed bool, cmd tea.Cmd) {
	event, cmd = p.Form.Update(msg)
	if event == form.Cancel {
		if p.Form.CancelIfBusy(p.Requests) {
			return form.Nothing, false, nil
		}
		return event, true, nil
	}
	return event, false, cmd
}

// SetSize implements ui.SubView: forms take the width, and grow down.
func (p FormPanel) SetSize(width, _ int) { p.Form.SetWidth(width) }

// KeyMap implements ui.SubView.
func (p FormPanel) KeyMap() help.KeyMap { return p.Form.KeyMap() }

// CapturesKeys implements ui.SubView: the inputs take every key.
func (p FormPanel) CapturesKeys() bool { return true }

// Sending marks the form busy while its confirmed change runs.
func (p FormPanel) Sending() { p.Form.SetBusy(true) }

// PanelForm is the panel's form, so a screen can ask any open sub-view
// for its form (FormOf) without naming each sub-view's type.
func (p FormPanel) PanelForm() *form.Form { return p.Form }

// FormOf is the form of an open sub-view built on FormPanel, nil for any
// other sub-view (or none).
func FormOf(open ui.SubView) *form.Form {
	if panel, ok := open.(interface{ PanelForm() *form.Form }); ok {
		return panel.PanelForm()
	}
	return nil
}
