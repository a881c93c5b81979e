package screenkit

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/table"
)

// The mouse on screens (ui.BodyMouseMsg): where a screen draws its table
// or its form is found from the same drawing its View makes, so a change
// of layout moves the clicks with it.

// LinesAbove is how many lines whole draws before part, which it draws
// verbatim (a form or a table inside a sub-view's drawing); ok is false
// when whole does not draw part.
func LinesAbove(whole, part string) (lines int, ok bool) {
	at := strings.Index(whole, part)
	if part == "" || at < 0 {
		return 0, false
	}
	return strings.Count(whole[:at], "\n"), true
}

// WheelLines is how far one wheel step scrolls a detail pane, as the
// root scrolls the inspector and the help.
const WheelLines = 3

// DrawnAt is the line and column where a screen's drawing first shows
// part's first line (a form's title, a table's header), for a part that
// does not stand alone on its lines (beside another block, or padded to
// the body's width); ok is false when it is not drawn (cut off, or not
// shown).
func DrawnAt(view, part string) (line, column int, ok bool) {
	first, _, _ := strings.Cut(part, "\n")
	if first == "" {
		return 0, 0, false
	}
	for i, l := range strings.Split(view, "\n") {
		if at := strings.Index(l, first); at >= 0 {
			return i, ansi.StringWidth(l[:at]), true
		}
	}
	return 0, 0, false
}

// Height is how many lines a block of text takes.
func Height(block string) int { return strings.Count(block, "\n") + 1 }

// ClickForm gives the form drawn from line top of the body a click (a
// wheel step in a form moves nothing).
func ClickForm(form *form.Form, top int, msg ui.BodyMouseMsg) tea.Cmd {
	if form == nil || msg.Wheel != 0 {
		return nil
	}
	cmd, _ := form.ClickLine(msg.Y - top)
	return cmd
}

// ClickFormIn gives a click to the form that whole (the drawing of the
// sub-view holding it, from the body's top line) draws.
func ClickFormIn(whole string, form *form.Form, msg ui.BodyMouseMsg) tea.Cmd {
	if form == nil {
		return nil
	}
	top, ok := LinesAbove(whole, form.View())
	if !ok {
		return nil
	}
	return ClickForm(form, top, msg)
}

// ClickTable selects the row drawn at the click, or moves the cursor by
// the wheel, in the table drawn from line top of the body. hit says a
// click landed on a row; again that it landed on the row selected
// already (a double-click, for screens where enter opens it).
func ClickTable(table *table.Table, top int, msg ui.BodyMouseMsg) (hit, again bool) {
	if table.Filtering() {
		return false, false
	}
	if msg.Wheel != 0 {
		table.Wheel(msg.Wheel)
		return false, false
	}
	before, had := table.Cursor()
	row, ok := table.ClickRow(msg.Y - top)
	return ok, ok && had && row == before
}
