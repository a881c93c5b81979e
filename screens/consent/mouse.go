package consent

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/form"
)

// The mouse on the Consent screen: a click selects the consent drawn
// there and a second click on it opens its set (as enter does); in the
// audit trail a click selects a record; in a form a click focuses the
// field drawn there; the wheel moves the lists and scrolls a set's
// detail.

// TakesMouse implements ui.MouseTaker.
func (s *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: user ids, onboarding ids and
// policy choices are not secrets.
func (s *Screen) TypingPlain() bool { return s.openForm().TypingPlain() }

// openForm is the form of the open sub-view, nil when it has none.
func (s *Screen) openForm() *form.Form { return screenkit.FormOf(s.open) }

// tableTop is the body line of the table's header: under the header's
// lines and a blank line (View, layoutTable).
func (s *Screen) tableTop() int { return len(s.header(s.Width)) + 1 }

// mouse handles a click or a wheel step in the body.
func (s *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	switch v := s.open.(type) {
	case nil:
		if _, again := screenkit.ClickTable(&s.table, s.tableTop(), msg); again {
			if set, ok := s.selectedSet(); ok {
				s.show(newDetailView(s.Deps.Styles, newDetailKeys(s.keys), set, s.Deps.Clock))
			}
		}
	case *detailView:
		if msg.Wheel != 0 {
			v.scroll += msg.Wheel * screenkit.WheelLines
			v.clampScroll()
		}
	case *auditView:
		if top, ok := screenkit.LinesAbove(v.View(), v.table.View()); ok && v.loaded {
			screenkit.ClickTable(&v.table, top, msg)
		}
	default:
		if form := s.openForm(); form != nil {
			return screenkit.ClickFormIn(s.open.View(), form, msg)
		}
	}
	return nil
}
