package table

import (
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// Column widths: shared among the columns, then fitted to their content.

// layout shares the width among the columns: fixed ones first, then the
// flexible ones evenly (at least Min each).
func (t *Table) layout() {
	t.widths = make([]int, len(t.cols))
	if t.whole() {
		t.layoutWhole()
		return
	}
	visible := 0
	for _, c := range t.cols {
		if !c.Hidden {
			visible++
		}
	}
	avail := t.w - markerWidth - max(visible-1, 0) // one space between columns
	flex := 0
	for i, c := range t.cols {
		if c.Hidden {
			continue
		}
		if c.Width > 0 {
			t.widths[i] = c.Width
			avail -= c.Width
		} else {
			flex++
		}
	}
	if flex == 0 {
		return
	}
	share := max(avail, 0) / flex
	extra := max(avail, 0) - share*flex
	for i, c := range t.cols {
		if c.Width > 0 || c.Hidden {
			continue
		}
		w := share
		if extra > 0 {
			w++
			extra--
		}
		t.widths[i] = max(w, c.Min)
	}
	t.fitToContent()
}

// wantSample is how many rows measure the columns' content: enough to be
// representative, cheap at 100,000 rows.
const wantSample = 1000

// measure records each column's widest cell among the first rows.
func (t *Table) measure() {
	t.measured = [2]int{} // the window is read again: its rows are others now
	t.want = make([]int, len(t.cols))
	for i, c := range t.cols {
		t.want[i] = ui.CellWidth(c.Title)
	}
	t.measureRows(0, min(t.n, wantSample))
}

// measureRows widens want by the cells of rows [from, to).
func (t *Table) measureRows(from, to int) {
	for r := from; r < to; r++ {
		for i := range t.want {
			t.want[i] = max(t.want[i], ui.CellWidth(sanitize.Text(t.cell(r, i))))
		}
	}
}

// fitToContent sizes columns by their content: flexible columns wider than
// anything they hold give the rest to columns whose content is cut, in
// column order (the earlier column is the more important), so an id is
// not shortened beside blank space.
func (t *Table) fitToContent() {
	if len(t.want) != len(t.cols) {
		return
	}
	surplus := 0
	for i, c := range t.cols {
		if c.Hidden || c.Width > 0 {
			continue
		}
		if spare := t.widths[i] - max(t.want[i], c.Min); spare > 0 {
			surplus += spare
			t.widths[i] -= spare
		}
	}
	for i, c := range t.cols {
		if c.Hidden || surplus == 0 {
			continue
		}
		if need := t.want[i] - t.widths[i]; need > 0 {
			give := min(need, surplus)
			t.widths[i] += give
			surplus -= give
		}
	}
	// What nobody needs stays blank at the right: on a wide terminal the
	// columns keep their content's width instead of one column stretching
	// the others to the far edge. measureWindow widens a column again when
	// a row past the measured ones needs it.
	t.spare = surplus
	t.trimOverflow()
}

// measureWindow widens want by the rows on screen that measure skipped
// (past the first wantSample) while some width is spare, so a long cell far
// down a big list is drawn whole beside blank space, not cut. Only the rows
// that scrolled into view since the last call are read: a key press costs
// a row or two, not the whole window.
func (t *Table) measureWindow() {
	from, to := t.offset, min(t.offset+t.bodyHeight(), t.visibleLen())
	if (t.spare <= 0 && !t.whole()) || len(t.want) != len(t.cols) || to <= from {
		return
	}
	seen := t.measured
	t.measured = [2]int{from, to}
	grew := false
	for pos := from; pos < to; pos++ {
		if pos >= seen[0] && pos < seen[1] {
			continue
		}
		row := t.visibleRow(pos)
		if row < wantSample {
			continue
		}
		for i, c := range t.cols {
			if c.Hidden || (c.Width > 0 && !t.whole()) {
				continue
			}
			if w := ui.CellWidth(sanitize.Text(t.cell(row, i))); w > t.want[i] {
				t.want[i], grew = w, true
			}
		}
	}
	if grew {
		t.layout()
	}
}

// trimOverflow narrows columns, the widest first, when their minimums add
// up to more than the table's width: a cell then shows its ellipsis
// instead of being clipped at the frame's edge.
func (t *Table) trimOverflow() {
	if t.w <= 0 {
		return
	}
	total, visible := 0, 0
	for i, c := range t.cols {
		if !c.Hidden {
			total += t.widths[i]
			visible++
		}
	}
	over := total + markerWidth + max(visible-1, 0) - t.w
	for over > 0 {
		widest := -1
		for i, c := range t.cols {
			if !c.Hidden && t.widths[i] > 4 && (widest < 0 || t.widths[i] > t.widths[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			return
		}
		t.widths[widest]--
		over--
	}
}
