package transactions

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
)

// The mouse on the Transactions screen: a click selects the transaction
// drawn there; the wheel moves in
// the list.

// TakesMouse implements ui.MouseTaker.
func (t *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: the quick filter is no secret.
func (t *Screen) TypingPlain() bool { return true }

// mouse handles a click or a wheel step in the body (View: the heading
// line, then the table).
func (t *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	switch {
	case !t.loaded || t.loadErr != nil || t.table.Filtering():
	case msg.Wheel != 0:
		t.table.Wheel(msg.Wheel)
	default:
		t.table.ClickRow(msg.Y - 1)
	}
	return nil
}
