package table

// The mouse on a table: the screen that draws the table hands it a click
// at a line of the table's own drawing (0 is the header) or a wheel step;
// the table knows which row is drawn where.

// ClickRow selects the row drawn at line y of the table's view (0 is the
// header, the rows follow, then the footer) and returns its index in the
// data; ok is false when no row is drawn there (the header, the footer,
// blank lines, a table too short for rows).
func (t *Table) ClickRow(y int) (rowIndex int, ok bool) {
	if t.h <= 1 || y < 1 || y > t.bodyHeight() {
		return 0, false
	}
	pos := t.offset + y - 1
	if pos >= t.visibleLen() {
		return 0, false
	}
	t.cursor = pos
	t.clamp()
	return t.visibleRow(pos), true
}

// Wheel moves the cursor steps rows (negative: up), as many presses of ↓
// or ↑ would, and keeps it on screen.
func (t *Table) Wheel(steps int) {
	if t.visibleLen() == 0 {
		return
	}
	t.cursor += steps
	t.clamp()
}
