package webhooks

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The mouse on the Webhooks screen: a click selects the endpoint drawn
// there and a second click on it opens its detail (as enter does); in the
// add or edit form and the look-up a click focuses the field drawn there;
// the wheel moves in the list, and scrolls the detail, the key panel and
// the listener help (scroll.go), which take no clicks.

// TakesMouse implements ui.MouseTaker.
func (w *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: a name, a url, events, metadata
// and an id are not secrets (a signing key is never typed).
func (w *Screen) TypingPlain() bool { return true }

// underTitle is the body line under the screen's title and the blank
// line after it, where View draws the list and the look-up form.
func (w *Screen) underTitle() int {
	return screenkit.Height(w.Deps.Styles.Title.Render("Webhooks")) + 1
}

// mouse handles a click or a wheel step in the body.
func (w *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	switch {
	case w.mode != modeList && msg.Wheel != 0:
		w.scrollPageBy(msg.Wheel * screenkit.WheelLines)
		return nil
	case w.mode != modeList || w.loadErr != nil || len(w.hooks) == 0:
		return nil
	}
	w.scroll = pageScroll{} // a page opened from the list starts at its top
	if _, again := screenkit.ClickTable(&w.table, w.underTitle(), msg); again {
		if h := w.selected(); h != nil {
			w.mode, w.detail = modeDetail, h.ID
			return w.loadAttempts(h.ID)
		}
	}
	return nil
}
