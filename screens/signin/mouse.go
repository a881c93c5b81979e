package signin

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The mouse on the sign-in screen: a click on the username or the
// password (its label or its box) puts the cursor there; a click on a
// demo account selects it and a second click on it fills the form with it
// (as enter does); the wheel moves in the demo accounts. The OAuth panel
// takes keys only.
//
// Where View put each part is read from the drawing itself, since the
// form's height depends on the gateway line, the problem shown and
// whether the demo accounts stand beside the form or under it: the
// fields are found by their labels, the list by its header line.

// TakesMouse implements ui.MouseTaker.
func (s *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: the username and the demo
// accounts' filter are plain; the password and the OAuth panel are not.
func (s *Screen) TypingPlain() bool { return s.mode != modeOAuth && s.focus != focusPassword }

// mouse handles a click or a wheel step in the body.
func (s *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	if s.mode == modeOAuth || s.busy {
		return nil
	}
	view := s.View()
	st := s.Deps.Styles
	if len(s.Deps.Demo) > 0 {
		top, left, ok := screenkit.DrawnAt(view, s.demo.View())
		if ok && msg.X >= left && msg.Y >= top {
			return s.demoMouse(msg, top)
		}
	}
	if msg.Wheel != 0 {
		return nil
	}
	username, _, okUser := screenkit.DrawnAt(view, st.Label.Render("Username"))
	password, _, okPassword := screenkit.DrawnAt(view, st.Label.Render("Password"))
	if !okUser || !okPassword {
		return nil
	}
	switch field := password - username; {
	case msg.Y >= username && msg.Y < password:
		return s.setFocus(focusUsername)
	case msg.Y >= password && msg.Y < password+field:
		return s.setFocus(focusPassword)
	}
	return nil
}

// demoMouse gives the demo accounts' table, drawn from line top, a click
// or a wheel step.
func (s *Screen) demoMouse(msg ui.BodyMouseMsg, top int) tea.Cmd {
	hit, again := screenkit.ClickTable(&s.demo, top, msg)
	switch {
	case again && s.focus == focusDemo:
		_, cmd := s.useDemo()
		return cmd
	case hit:
		return s.setFocus(focusDemo)
	}
	return nil
}
