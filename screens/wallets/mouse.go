package wallets

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The mouse on the Wallets screen: a click selects the internal wallet
// drawn there, or focuses the withdrawal's amount; the wheel moves in the
// wallets. The history is a page of lines with no cursor: n and p page it.

// TakesMouse implements ui.MouseTaker.
func (w *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: an amount and a filter are not
// secrets.
func (w *Screen) TypingPlain() bool {
	return w.mode != modeWithdraw || w.withdraw.form == nil || w.withdraw.form.TypingPlain()
}

// tableTop is the body line of the wallets' table header: under the
// overview's head, which ends with a newline (layoutOverview, overview).
func (w *Screen) tableTop() int { return strings.Count(w.parts.head, "\n") }

// mouse handles a click or a wheel step in the body.
func (w *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	switch w.mode {
	case modeWithdraw:
		return screenkit.ClickFormIn(w.withdrawView(w.Width), w.withdraw.form, msg)
	case modeOverview:
		if w.parts.table {
			screenkit.ClickTable(&w.table, w.tableTop(), msg)
			w.movedOnly = true
		}
	}
	return nil
}
