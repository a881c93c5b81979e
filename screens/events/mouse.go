package events

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
)

// The mouse on the Events screen: a click selects a delivery or a field
// of the test-event form, the wheel moves in the list or scrolls the
// detail pane under the pointer.

// TakesMouse implements ui.MouseTaker.
func (s *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: the filter is not a secret (the
// forms are layers, which say it for themselves).
func (s *Screen) TypingPlain() bool { return true }

// listTop is the body line of the table's header: under the heading and
// a blank line (View).
const listTop = 2

// mouse handles a click or a wheel step in the body.
func (s *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	if len(s.deliveries) == 0 || s.table.Filtering() {
		return nil
	}
	paneTop := listTop + s.tableHeight + 1
	switch {
	case msg.Wheel != 0 && msg.Y >= paneTop:
		s.paneOffset = min(max(s.paneOffset+msg.Wheel, 0), s.maxPaneOffset())
	case msg.Wheel != 0:
		s.table.Wheel(msg.Wheel)
	default:
		s.table.ClickRow(msg.Y - listTop)
	}
	if d, ok := s.selected(); ok && d.Seq != s.paneSeq {
		s.paneSeq, s.paneOffset = d.Seq, 0
	}
	s.layoutPane()
	return nil
}
