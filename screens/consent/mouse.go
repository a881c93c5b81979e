package consent

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The mouse on the Consent screen: a click selects the consent drawn
// there and a second click on it opens its set (as enter does); the
// wheel moves the list. Its layers take their own clicks: in the audit
// trail a click selects a record, in a form it focuses the field drawn
// there, and the wheel scrolls a set's detail.

// TakesMouse implements ui.MouseTaker.
func (s *Screen) TakesMouse() bool { return true }

// tableTop is the body line of the table's header: under the header's
// lines and a blank line (View, layoutTable).
func (s *Screen) tableTop() int { return len(s.header(s.Width)) + 1 }

// mouse handles a click or a wheel step on the main view; a second
// click on a consent opens its set.
func (s *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	if _, again := screenkit.ClickTable(&s.table, s.tableTop(), msg); again {
		if set, ok := s.selectedSet(); ok {
			return s.openDetail(set)
		}
	}
	return nil
}
