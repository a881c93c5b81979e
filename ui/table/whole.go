package table

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/ui"
)

// A table read out line by line (theme.Styles.WholeText, the accessible
// mode) cuts no cell: each column is as wide as its widest cell, and a row
// wider than the table wraps onto lines indented under its first. A
// screen reader's user has no other way to learn the end of a long name
// or URL.

// whole reports whether the table is drawn for reading.
func (t Table) whole() bool { return t.st != nil && t.st.WholeText }

// layoutWhole makes every column as wide as its widest cell measured (a
// fixed width or a minimum stays the least it gets).
func (t *Table) layoutWhole() {
	for i, c := range t.cols {
		if c.Hidden {
			continue
		}
		t.widths[i] = max(c.Width, c.Min, 1)
		if len(t.want) == len(t.cols) {
			t.widths[i] = max(t.widths[i], t.want[i])
		}
	}
}

// viewWhole draws the header, as many rows as their lines fit with the
// cursor's among them, and the footer, in exactly the table's size.
func (t Table) viewWhole(p *tablePaint) string {
	room := max(t.w-markerWidth, 1)
	lines := wrapRow(p.header, "  ", t.wholeCells(-1), room)
	budget := t.h - 1 - len(lines) // the footer's line
	var rows [][]string
	used := 0
	for pos := t.offset; pos < t.visibleLen(); pos++ {
		row := t.wholeRow(p, pos, room)
		if pos > t.cursor && used+len(row) > budget {
			break
		}
		rows, used = append(rows, row), used+len(row)
		// Rows above leave room for the cursor's, never the reverse.
		for used > budget && len(rows) > 1 {
			used -= len(rows[0])
			rows = rows[1:]
		}
	}
	for _, row := range rows {
		lines = append(lines, row...)
	}
	if t.visibleLen() == 0 {
		msg := "no rows"
		if t.filter != "" && t.n > 0 {
			msg = "no row matches the filter"
		}
		lines = append(lines, p.muted[0]+ui.FitLine("  "+msg, t.w)+p.muted[1])
	}
	lines = append(lines[:min(len(lines), t.h-1)], t.footer(p))
	for len(lines) < t.h {
		lines = append(lines, strings.Repeat(" ", t.w))
	}
	return strings.Join(lines, "\n")
}

// wholeRow is the lines of the row at pos: its marker, then its cells
// whole, wrapped to room.
func (t Table) wholeRow(p *tablePaint, pos, room int) []string {
	idx := t.visibleRow(pos)
	selected := pos == t.cursor
	style := p.row
	if selected {
		style = p.selected
	}
	return wrapRow(style, rowMarker(p, selected, t.isMarked(idx)), t.wholeCells(idx), room)
}

// wholeCells is the cells of row idx (the titles for -1) at the columns'
// widths, with no space at the end.
func (t Table) wholeCells(idx int) string {
	var b strings.Builder
	for i, c := range t.cols {
		if c.Hidden {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		text := c.Title
		if idx >= 0 {
			text = t.cell(idx, i)
		}
		writeCell(&b, text, t.widths[i], c.Right)
	}
	return strings.TrimRight(b.String(), " ")
}

// wrapRow wraps text to room cells (at spaces and hyphens, a word longer
// than a line where it must), the first line after marker and the others
// indented as far, each styled and padded to the table's width.
func wrapRow(style [2]string, marker, text string, room int) []string {
	wrapped := strings.Split(ansi.Wrap(text, room, ""), "\n")
	lines := make([]string, len(wrapped))
	for i, line := range wrapped {
		lead := "  "
		if i == 0 {
			lead = marker
		}
		lines[i] = lead + style[0] + ui.FitLine(line, room) + style[1]
	}
	return lines
}

// rowMarker is the mark column of a row: the cursor, a mark, or blank.
func rowMarker(p *tablePaint, selected, marked bool) string {
	switch {
	case selected && marked:
		return p.selected[0] + "● " + p.selected[1]
	case selected:
		return p.selected[0] + "› " + p.selected[1]
	case marked:
		return p.marked[0] + "●" + p.marked[1] + " "
	}
	return "  "
}
