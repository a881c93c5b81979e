package support

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The mouse in the support console: a click selects the look-up, the
// consent or the audit record drawn there, and a second click on a
// selected look-up opens it (as enter does); in a form a click focuses
// the field drawn there; the wheel moves in the list under it. The
// approval panel takes keys only.

// TakesMouse implements ui.MouseTaker.
func (s *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: ids, tickets and filters are
// plain; the secret key asked before a revoke is not, nor the code a
// customer reads out for an approved session.
func (s *Screen) TypingPlain() bool { return true }

// formTop is the body line of an open form: under the console's title and
// a blank line (View).
func (s *Screen) formTop() int {
	return screenkit.Height(s.Deps.Styles.Title.Render("Support console")) + 1
}

// mouse handles a click or a wheel step in the body, in the view View
// draws.
func (s *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	switch {
	case s.view == viewLookups:
		top, ok := screenkit.LinesAbove(s.lookupsView(), s.lookups.View())
		if ok && (len(s.recent) > 0 || len(s.opts.DemoUsers) > 0) {
			if _, again := screenkit.ClickTable(&s.lookups, top, msg); again {
				return s.openSelectedLookup()
			}
		}
		return nil
	}
	if s.kase != nil && len(s.kase.sets) > 0 {
		screenkit.ClickTable(&s.sets, s.caseHeaderHeight(), msg)
	}
	return nil
}
