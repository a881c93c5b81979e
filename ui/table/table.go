package table

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// Column describes one table column. Width 0 shares the space left by the
// fixed columns (never less than Min); Right aligns numbers.
type Column struct {
	Title string
	Width int
	Min   int
	Right bool
	// Hidden drops the column (and its cell of every row) from the
	// drawing: a narrow layout hides columns instead of rebuilding rows.
	Hidden bool
}

// Table shows big data: it draws only the visible rows, filters 100,000 rows
// within a key press and supports multi-select. It reads cells through an
// accessor (SetSource) and copies none. It is a value, like the bubbles
// widgets; Update returns the new value. Copies share row storage.
type Table struct {
	st     *theme.Styles
	cols   []Column
	widths []int
	// want is each column's widest cell (title included) among the first
	// rows: layout gives a column that needs more the space others leave.
	want []int
	// spare is the width no column needs, left blank at the right;
	// measured is the window of rows measureWindow last read.
	spare    int
	measured [2]int
	keys     KeyMap

	cell CellFunc   // the data
	n    int        // rows the accessor serves
	rows [][]string // what SetRows was given, for Row; nil after SetSource

	masks  []uint64      // the filter's index: built on the first search, dropped with the data
	view   []int32       // while filtered: indices of the rows shown, ascending
	levels []filterLevel // matches for each prefix of the filter typed so far

	marks     []uint64 // one bit a row, allocated on the first mark
	numMarked int

	cursor, offset int
	w, h           int
	filtering      bool
	filter         string
	loading        bool

	// painted caches the styles' escape sequences; copies share it.
	painted *tablePaint
}

// New builds an empty table with the shared styles. Marking rows is
// off until SetMarkable: a screen offers it only with an action for them.
func New(styles *theme.Styles, cols []Column) Table {
	t := Table{st: styles, cols: cols, keys: Keys(), painted: &tablePaint{}}
	t.keys.Mark.SetEnabled(false)
	t.layout()
	return t
}

// SetMarkable turns marking rows with space on or off; when off, the key
// does nothing and the help does not offer it.
func (t *Table) SetMarkable(on bool) { t.keys.Mark.SetEnabled(on) }

// SetColumns changes the columns' titles, widths and visibility on the
// same cells: rows, marks, cursor and filter stay as they are. Screens call
// it from SetSize to switch between narrow and wide layouts.
func (t *Table) SetColumns(cols []Column) {
	t.cols = cols
	t.measure()
	t.layout()
}

// SetSize sets the cells the table may use, header and footer included.
func (t *Table) SetSize(w, h int) {
	t.w, t.h = max(w, 0), max(h, 0)
	t.layout()
	t.clamp()
}

// VisibleRows is the indices (into the data) of the rows the filter lets
// through, in order: what an export of the view holds.
func (t Table) VisibleRows() []int {
	out := make([]int, t.visibleLen())
	for p := range out {
		out[p] = t.visibleRow(p)
	}
	return out
}

// VisibleLen is the number of rows that pass the filter.
func (t Table) VisibleLen() int { return t.visibleLen() }

// Cursor is the index (into the data) of the selected row.
func (t Table) Cursor() (rowIndex int, ok bool) {
	if t.cursor < 0 || t.cursor >= t.visibleLen() {
		return 0, false
	}
	return t.visibleRow(t.cursor), true
}

// SetCursor selects a row by its index in the data, if it passes the filter.
func (t *Table) SetCursor(rowIndex int) {
	if pos, ok := t.position(rowIndex); ok {
		t.cursor = pos
		t.clamp()
	}
}

// Filtering reports whether the filter line has the keys (screens return it
// from CapturesKeys).
func (t Table) Filtering() bool { return t.filtering }

// FilterKey gives msg to the table while its quick filter is open, where
// every key types (letters that are a screen's keys included), and reports
// whether it did; a screen calls it before matching its own keys.
func (t *Table) FilterKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !t.filtering {
		return nil, false
	}
	var cmd tea.Cmd
	*t, cmd = t.Update(msg)
	return cmd, true
}

// Filter is the filter text in effect.
func (t Table) Filter() string { return t.filter }

// KeyMap is the table's keys, for the screen's help.
func (t Table) KeyMap() help.KeyMap {
	k := t.keys
	if t.filtering {
		// While typing a filter only these keys do anything else.
		return ui.KeyMapFunc{
			Short: func() []key.Binding { return []key.Binding{k.Accept, k.ClearFilter} },
			Full: func() [][]key.Binding {
				return [][]key.Binding{{k.Accept, k.ClearFilter, k.Backspace, k.MoveWhileFiltering}}
			},
		}
	}
	move := []key.Binding{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End}
	other := []key.Binding{k.Filter}
	if k.Mark.Enabled() {
		// Marking is offered only where a screen has an action for it.
		other = append(other, k.Mark)
	}
	return ui.KeyMapFunc{
		Short: func() []key.Binding { return append([]key.Binding{k.Up, k.Down}, other...) },
		Full:  func() [][]key.Binding { return [][]key.Binding{move, other} },
	}
}

// Update handles the table's keys; other messages are ignored.
func (t Table) Update(msg tea.Msg) (Table, tea.Cmd) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return t, nil
	}
	if t.filtering {
		t.filterKey(k)
		return t, nil
	}
	cursor, moved := t.keys.Move(k, t.cursor, max(t.bodyHeight(), 1), t.visibleLen()-1)
	switch {
	case moved:
		t.cursor = cursor
	case key.Matches(k, t.keys.Mark):
		if i, ok := t.Cursor(); ok {
			t.toggleMark(i)
		}
	case key.Matches(k, t.keys.Filter):
		t.filtering = true
	case key.Matches(k, t.keys.ClearFilter) && t.filter != "":
		t.setFilter("")
	}
	t.clamp()
	return t, nil
}

func (t *Table) filterKey(k tea.KeyPressMsg) {
	switch {
	case key.Matches(k, t.keys.Accept):
		t.filtering = false
		t.keepLastLevel()
	case key.Matches(k, t.keys.ClearFilter):
		t.filtering = false
		t.setFilter("")
	case key.Matches(k, t.keys.Backspace):
		if t.filter != "" {
			_, size := lastRune(t.filter)
			t.setFilter(t.filter[:len(t.filter)-size])
		}
	case key.Matches(k, t.keys.MoveWhileFiltering):
		t.filtering = false
		nt, _ := t.Update(k)
		*t = nt
		t.filtering = true
	case k.Text != "" && k.Mod&^(tea.ModShift) == 0:
		t.setFilter(t.filter + sanitize.Text(k.Text))
	}
	t.clamp()
}

func lastRune(s string) (rune, int) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i]&0xc0 != 0x80 {
			return []rune(s[i:])[0], len(s) - i
		}
	}
	return 0, len(s)
}

func (t Table) bodyHeight() int { return max(t.h-2, 0) } // header and footer

func (t *Table) clamp() {
	if t.cursor >= t.visibleLen() {
		t.cursor = t.visibleLen() - 1
	}
	if t.cursor < 0 {
		t.cursor = 0
	}
	bh := t.bodyHeight()
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if bh > 0 && t.cursor >= t.offset+bh {
		t.offset = t.cursor - bh + 1
	}
	if maxOff := max(t.visibleLen()-bh, 0); t.offset > maxOff {
		t.offset = maxOff
	}
	if t.offset < 0 {
		t.offset = 0
	}
	t.measureWindow()
}
