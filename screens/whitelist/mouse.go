package whitelist

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The mouse on the Whitelist screen: a click selects the entry drawn
// there, or a field of the add form; the wheel moves in the list. The
// currency picker takes keys only.

// TakesMouse implements ui.MouseTaker.
func (w *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: no field of the add form, the
// picker's code nor the filter is a secret.
func (w *Screen) TypingPlain() bool { return w.form == nil || w.form.form.TypingPlain() }

// tableTop is the body line of the table's header: under the title line
// and a blank line (View).
func (w *Screen) tableTop() int { return screenkit.Height(w.head()) + 1 }

// mouse handles a click or a wheel step in the body.
func (w *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	switch {
	case w.form != nil:
		return screenkit.ClickForm(w.form.form, 0, msg)
	case w.picker != nil || w.loadErr != nil:
		return nil
	}
	screenkit.ClickTable(&w.table, w.tableTop(), msg)
	return nil
}
