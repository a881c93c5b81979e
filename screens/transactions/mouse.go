package transactions

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
)

// The mouse on the Transactions screen: a click selects the transaction
// (or, with the filters open, the field) drawn there; the wheel moves in
// the list.

// TakesMouse implements ui.MouseTaker.
func (t *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: no filter is a secret.
func (t *Screen) TypingPlain() bool { return t.form.TypingPlain() }

// mouse handles a click or a wheel step in the body (View: the heading
// line, then the table; with the filters open, a blank line and the form).
func (t *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	switch {
	case t.form != nil:
		if msg.Wheel == 0 {
			cmd, _ := t.form.ClickLine(msg.Y - 2)
			return cmd
		}
	case !t.loaded || t.loadErr != nil || t.table.Filtering():
	case msg.Wheel != 0:
		t.table.Wheel(msg.Wheel)
	default:
		t.table.ClickRow(msg.Y - 1)
	}
	return nil
}
