package table

// The table's data: cells read through an accessor, never copied.

// CellFunc returns the text of one cell. The table calls it for the rows it
// draws and, while a filter is typed, for the rows it searches, from
// several goroutines at once: it must only read (the records it serves do
// not change until the next SetSource).
type CellFunc func(row, col int) string

// SetSource replaces the data with n rows whose cells cell returns: the
// table holds the accessor, not a copy of the cells, and builds nothing per
// row until a filter is typed. Marks are cleared (row indices change
// meaning); the filter is kept and re-applied; the cursor stays where it
// was, clamped.
func (t *Table) SetSource(n int, cell CellFunc) {
	t.rows = nil
	t.setSource(max(n, 0), cell)
}

// SetRows replaces the data with rows (SetSource over them; the table keeps
// the slice, it does not copy it). A row may have more cells than there are
// columns: the filter searches them too.
func (t *Table) SetRows(rows [][]string) {
	t.rows = rows
	t.setSource(len(rows), func(row, col int) string {
		if cells := rows[row]; col < len(cells) {
			return cells[col]
		}
		return ""
	})
}

func (t *Table) setSource(n int, cell CellFunc) {
	t.cell = cell
	t.n = n
	t.masks = nil
	t.marks = nil
	t.numMarked = 0
	t.levels = nil
	t.view = nil
	t.measure()
	t.layout()
	if t.filter != "" {
		t.applyFilter(-1)
	}
	t.clamp()
}

// Grow extends the rows the accessor serves to n (rows arriving while a
// big list is decoded): the cursor, marks, filter and scroll position stay;
// an open filter is applied to the new rows. An n at or below Len does
// nothing. The first rows' widths still size the columns, so a list grown
// to its end draws as one given whole.
func (t *Table) Grow(n int) {
	if n <= t.n || t.cell == nil {
		return
	}
	old := t.n
	t.n = n
	if old < wantSample {
		t.measureRows(old, min(n, wantSample))
		t.layout()
	}
	if t.filter != "" {
		t.growFilter(old)
	}
	t.clamp()
}

// SetLoading says whether more rows are on their way: the footer then adds
// "loading…" after the count.
func (t *Table) SetLoading(on bool) { t.loading = on }

// Loading reports what SetLoading last set.
func (t Table) Loading() bool { return t.loading }

// Len is the number of rows the table holds (SetRows, SetSource, Grow).
func (t Table) Len() int { return t.n }

// Row returns the cells of a row by its index: the slice given to SetRows,
// or one cell a column read through the accessor.
func (t Table) Row(rowIndex int) []string {
	if rowIndex < 0 || rowIndex >= t.n {
		return nil
	}
	if t.rows != nil {
		return t.rows[rowIndex]
	}
	cells := make([]string, len(t.cols))
	for col := range cells {
		cells[col] = t.cell(rowIndex, col)
	}
	return cells
}

// rowCells is how many cells of a row the filter searches: the row's own
// length for SetRows, the columns for SetSource.
func (t *Table) rowCells(row int) int {
	if t.rows != nil {
		return len(t.rows[row])
	}
	return len(t.cols)
}

// Marks are one bit a row, allocated on the first mark.

func (t Table) isMarked(row int) bool {
	word := row / 64
	return word < len(t.marks) && t.marks[word]&(1<<(row%64)) != 0
}

func (t *Table) toggleMark(row int) {
	word := row / 64
	if word >= len(t.marks) {
		t.marks = append(t.marks, make([]uint64, (t.n+63)/64-len(t.marks))...)
	}
	t.marks[word] ^= 1 << (row % 64)
	if t.marks[word]&(1<<(row%64)) != 0 {
		t.numMarked++
	} else {
		t.numMarked--
	}
}

// Marked lists the marked rows (indices into the data), ascending.
func (t Table) Marked() []int {
	out := make([]int, 0, t.numMarked)
	for word, bits := range t.marks {
		for bit := 0; bits != 0; bit++ {
			if bits&1 != 0 {
				out = append(out, word*64+bit)
			}
			bits >>= 1
		}
	}
	return out
}

// ClearMarks unmarks every row, after an action on the marked rows.
func (t *Table) ClearMarks() {
	clear(t.marks)
	t.numMarked = 0
}

// visibleLen is the number of rows that pass the filter.
func (t Table) visibleLen() int {
	if t.filter == "" {
		return t.n
	}
	return len(t.view)
}

// visibleRow is the row index at position p of the view.
func (t Table) visibleRow(p int) int {
	if t.filter == "" {
		return p
	}
	return int(t.view[p])
}
