package delegation

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/form"
)

// The mouse on the Delegation screen: in the token request and the
// post-approval a click focuses the field drawn there; in the chain
// configuration a click selects the network or token drawn there, and a
// second click on the selected network opens its tokens (as enter does);
// the wheel moves in those lists. The main view (the token panel and the
// registered wallets) has nothing to select.

// TakesMouse implements ui.MouseTaker.
func (s *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: the post-approval's token is a
// secret, its other fields and the token request's are not.
func (s *Screen) TypingPlain() bool { return s.openForm().TypingPlain() }

// openForm is the form of the open sub-view, nil when it has none.
func (s *Screen) openForm() *form.Form { return screenkit.FormOf(s.open) }

// mouse handles a click or a wheel step in the body.
func (s *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	if c, ok := s.open.(*chainBrowser); ok {
		c.mouse(msg)
		return nil
	}
	form := s.openForm()
	if form == nil || msg.Wheel != 0 {
		return nil
	}
	// fitForm drops lines under the title when the form is too tall: a
	// click under the title is on the line as many lines further down
	// in the form's own drawing.
	y := msg.Y
	if dropped := screenkit.Height(form.View()) - screenkit.Height(s.open.View()); y >= 1 && dropped > 0 {
		y += dropped
	}
	cmd, _ := form.ClickLine(y)
	return cmd
}

// mouse gives the chain configuration's list in sight a click or a wheel
// step.
func (c *chainBrowser) mouse(msg ui.BodyMouseMsg) {
	if c.err != nil || c.loading && len(c.config.Networks) == 0 {
		return
	}
	if head := c.detailHead(); head != "" {
		screenkit.ClickTable(&c.tokens, lineCount(head), msg) // under the detail's head (View, layout)
		return
	}
	// Under the heading, the line of keys and a blank line (View, layout).
	if _, again := screenkit.ClickTable(&c.networks, lineCount(c.heading())+2, msg); again {
		c.openNetwork()
	}
}
