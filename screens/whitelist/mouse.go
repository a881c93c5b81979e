package whitelist

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// The mouse on the Whitelist screen: a click selects the entry drawn
// there, or a currency of the picker (a
// second click on it picks it, as enter does); the wheel moves in the
// list or the picker.

// TakesMouse implements ui.MouseTaker.
func (w *Screen) TakesMouse() bool { return true }

// TypingPlain implements ui.PlainTyping: neither the picker's code nor
// the filter is a secret.
func (w *Screen) TypingPlain() bool { return true }

// tableTop is the body line of the table's header: under the title line
// and a blank line (View).
func (w *Screen) tableTop() int { return screenkit.Height(w.head()) + 1 }

// mouse handles a click or a wheel step in the body.
func (w *Screen) mouse(msg ui.BodyMouseMsg) tea.Cmd {
	switch {
	case w.picker != nil:
		return w.pickerMouse(msg)
	case w.loadErr != nil:
		return nil
	}
	screenkit.ClickTable(&w.table, w.tableTop(), msg)
	return nil
}

// pickerMouse gives the currency picker a click or a wheel step. Its
// choices are the last lines it draws, under the title line and a blank
// line (View).
func (w *Screen) pickerMouse(msg ui.BodyMouseMsg) tea.Cmd {
	p := w.picker
	n := len(p.choices)
	if n == 0 {
		return nil
	}
	if msg.Wheel != 0 {
		p.pos = min(max(p.pos+msg.Wheel, 0), n-1)
		return nil
	}
	first := screenkit.Height(w.head()) + 1 + len(p.view(w.Deps.Styles)) - n
	i := msg.Y - first
	switch {
	case i < 0 || i >= n:
		return nil
	case i == p.pos:
		return w.closePicker(p.choices[i])
	}
	p.pos = i
	return nil
}
