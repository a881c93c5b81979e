package screenkit

import (
	"fmt"

	"cardterm/theme"
)

// A page taller than the body scrolls: its lines show from an offset, and
// a row says how many are hidden above ("↑ 3 more lines above") or below
// ("↓ 4 more lines below"), as a form too tall for the screen says.

// ScrollLast is the furthest offset a page of lines scrolls to in height
// rows, its last line then on the last row: 0 when it fits.
func ScrollLast(lines, height int) int {
	if lines <= height {
		return 0
	}
	return lines - max(height-1, 1) // the row above says what is hidden
}

// ScrollPage is the step of a page key in height rows: the lines shown
// between the two rows that say what is hidden, less one kept in sight.
func ScrollPage(height int) int { return max(height-3, 1) }

// Scrolled is the rows height shows of lines from offset (kept within
// ScrollLast): all of them when they fit, else the visible part with a row
// above and one below saying how many lines are hidden that way.
func Scrolled(st *theme.Styles, lines []string, offset, height int) []string {
	if len(lines) <= height {
		return lines
	}
	offset = min(max(offset, 0), ScrollLast(len(lines), height))
	room := height
	var rows []string
	if offset > 0 {
		rows = append(rows, st.Muted.Render(fmt.Sprintf("↑ %d more %s above", offset, Plural(offset, "line", "lines"))))
		room--
	}
	if offset+room < len(lines) {
		room-- // the row below says the rest
	}
	end := min(offset+max(room, 1), len(lines))
	rows = append(rows, lines[offset:end]...)
	if below := len(lines) - end; below > 0 {
		rows = append(rows, st.Muted.Render(fmt.Sprintf("↓ %d more %s below", below, Plural(below, "line", "lines"))))
	}
	return rows
}
