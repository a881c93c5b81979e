package orders

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The mouse on the Orders screen: a click selects the product drawn there
// (ordering stays on enter, which asks first), or focuses the look-up's
// field; the wheel moves in the products. The payment panel has nothing
// to select: it takes keys only.

// TakesMouse implements ui.MouseTaker.
func (s *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: an order id and the filter are
// not secrets.
func (s *Screen) TypingPlain() bool { return true }

// tableTop is the body line of the products' header: under the title
// line and a blank line (View, layout).
func (s *Screen) tableTop() int {
	return screenkit.Height(s.Deps.Styles.Title.Render("Orders")) + 1
}

// mouse handles a click or a wheel step in the body.
func (s *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	if s.loadErr == nil && len(s.products) > 0 {
		screenkit.ClickTable(&s.table, s.tableTop(), msg)
	}
	return nil
}
