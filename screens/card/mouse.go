package card

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The mouse on the Card screen: in the set-PIN page style, View PIN and
// card details forms a click focuses the field drawn there. The card's
// fields, the set-PIN panel and the image notes have nothing to select.

// TakesMouse implements ui.MouseTaker.
func (c *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: the forms take colours and
// styles, not secrets.
func (c *Screen) TypingPlain() bool { return c.form.TypingPlain() }

// mouse handles a click in the body. The form stands under the card, or
// beside it on a wide terminal (cardWithPanels): where is read from the
// drawing, by the form's title line.
func (c *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	if c.form == nil || msg.Wheel != 0 {
		return nil
	}
	top, left, ok := screenkit.DrawnAt(c.View(), c.form.View())
	if !ok || msg.X < left {
		return nil
	}
	return screenkit.ClickForm(c.form, top, msg)
}
