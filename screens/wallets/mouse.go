package wallets

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The mouse on the Wallets screen: a click selects the internal wallet
// drawn there; the wheel moves in the wallets. A click on the withdrawal's
// amount is its layer's (screenkit.FormLayer). The history is a page of lines with no cursor: n and p page it.

// TakesMouse implements ui.MouseTaker.
func (w *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: a filter is not a secret.
func (w *Screen) TypingPlain() bool { return true }

// tableTop is the body line of the wallets' table header: under the
// overview's head, which ends with a newline (layoutOverview, overview).
func (w *Screen) tableTop() int { return strings.Count(w.parts.head, "\n") }

// mouse handles a click or a wheel step in the body.
func (w *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	if w.mode == modeOverview && w.parts.table {
		screenkit.ClickTable(&w.table, w.tableTop(), msg)
		w.movedOnly = true
	}
	return nil
}
