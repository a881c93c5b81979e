package delegation

import (
	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The mouse on the Delegation screen's layers: in the token request and
// the post-approval a click focuses the field drawn there (formLayer); in
// the chain configuration a click selects the network or token drawn
// there, and a second click on the selected network opens its tokens (as
// enter does); the wheel moves in those lists. The main view (the token
// panel and the registered wallets) has nothing to select.

// TakesMouse implements ui.MouseTaker.
func (s *Screen) TakesMouse() bool { return true }

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
