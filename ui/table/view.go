package table

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// markerWidth is the mark column at the left of each row ("● ").
const markerWidth = 2

// KeyMap is the keys of a table.
type KeyMap struct {
	ui.ScrollKeyMap
	Mark, Filter                   key.Binding
	Accept, ClearFilter, Backspace key.Binding
	// MoveWhileFiltering is the arrows and page keys, which move the
	// cursor while a filter is typed (letters such as j and g type).
	MoveWhileFiltering key.Binding
}

// Keys builds the table keys (arrows or j/k move, space
// marks, / filters).
func Keys() KeyMap {
	return KeyMap{
		ScrollKeyMap: ui.ScrollKeyMap{
			Up:       ui.UpKey(),
			Down:     ui.DownKey(),
			PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
			PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
			Home:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "top")),
			End:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "bottom")),
		},
		Mark:        key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "mark")),
		Filter:      keymap.Bind("global.filter"), // a keys file may move it
		Accept:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Backspace:   key.NewBinding(key.WithKeys("backspace"), key.WithHelp("backspace", "erase")),
		MoveWhileFiltering: key.NewBinding(key.WithKeys("up", "down", "pgup", "pgdown"),
			key.WithHelp("↑/↓/pgup/pgdn", "move")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Mark, k.Filter}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.Mark, k.Filter, k.Accept, k.ClearFilter},
	}
}

// tablePaint is what the table's styles put around text, worked out once
// per theme (the root rebuilds the styles in place when the terminal's
// background is learnt): a frame styles its lines by writing these around
// them, with no lipgloss render.
type tablePaint struct {
	st                    *theme.Styles
	dark, noColor         bool
	header, row, selected [2]string
	marked, muted, accent [2]string
}

// paint returns the wraps of the table's styles, working them out again
// only when the theme changed.
func (t Table) paint() *tablePaint {
	p := t.painted
	if p == nil { // a Table not made by New
		p = &tablePaint{}
	}
	if p.st == t.st && p.dark == t.st.IsDark && p.noColor == t.st.NoColor {
		return p
	}
	p.st, p.dark, p.noColor = t.st, t.st.IsDark, t.st.NoColor
	wrap := func(s lipgloss.Style) [2]string {
		pre, post := ui.WrapStyle(s)
		return [2]string{pre, post}
	}
	p.header, p.row, p.selected = wrap(t.st.TableHeader), wrap(t.st.TableRow), wrap(t.st.TableSelected)
	p.marked, p.muted, p.accent = wrap(t.st.TableMarked), wrap(t.st.Muted), wrap(t.st.Accent)
	return p
}

// writeCell writes one cell sanitized, cut (ids lose their middle, text
// its end) and padded to exactly w cells.
func writeCell(b *strings.Builder, s string, w int, right bool) {
	if w <= 0 {
		return
	}
	s = sanitize.Text(ui.ClipLong(s))
	sw := ui.CellWidth(s)
	if sw > w && printableASCII(s) {
		ui.WriteShortASCII(b, s, w)
		return
	}
	if sw > w {
		s = ui.Shorten(s, w)
		sw = ansi.StringWidth(s)
	}
	if right {
		ui.WriteSpaces(b, w-sw)
		b.WriteString(s)
		return
	}
	b.WriteString(s)
	ui.WriteSpaces(b, w-sw)
}

// View draws the table in exactly its size: header, the visible rows, the
// footer right under them, and blank lines below. Only visible rows are
// sanitized, cut and styled, straight into one buffer.
func (t Table) View() string {
	if t.w <= 0 || t.h <= 0 {
		return ""
	}
	p := t.paint()
	if t.h == 1 { // no room for a header or rows: the footer says where we are
		return t.footer(p)
	}
	if t.whole() {
		return t.viewWhole(p)
	}
	var b strings.Builder
	b.Grow((t.w + 48) * t.h)
	lines := 0
	newLine := func() {
		if lines > 0 {
			b.WriteByte('\n')
		}
		lines++
	}

	// Header.
	newLine()
	b.WriteString(p.header[0])
	t.writeCells(&b, -1)
	b.WriteString(p.header[1])

	bh := t.bodyHeight()
	for n := 0; n < bh && lines < t.h-1; n++ {
		pos := t.offset + n
		if pos >= t.visibleLen() {
			if n == 0 {
				msg := "no rows"
				if t.filter != "" && t.n > 0 {
					msg = "no row matches the filter"
				}
				newLine()
				b.WriteString(p.muted[0])
				ui.WriteFitted(&b, "  "+msg, t.w)
				b.WriteString(p.muted[1])
			}
			break
		}
		newLine()
		idx := t.visibleRow(pos)
		marked, selected := t.isMarked(idx), pos == t.cursor
		if t.w <= markerWidth { // too narrow for any cell: the marker column alone
			mark := "  "
			if selected {
				mark = "› "
			}
			ui.WriteFitted(&b, mark, t.w)
			continue
		}
		style := p.row
		if selected {
			style = p.selected
		}
		b.WriteString(rowMarker(p, selected, marked))
		b.WriteString(style[0])
		t.writeCells(&b, idx)
		b.WriteString(style[1])
	}
	// The footer, and the filter typed in it, sit right under the last
	// row, not at the bottom of a mostly empty table.
	newLine()
	b.WriteString(t.footer(p))
	for lines < t.h {
		newLine()
		ui.WriteSpaces(&b, t.w)
	}
	return b.String()
}

// writeCells writes the cells of row idx (the titles for -1) after the
// marker column, fitted to the table's width.
func (t Table) writeCells(b *strings.Builder, idx int) {
	if idx < 0 {
		ui.WriteSpaces(b, min(markerWidth, t.w))
	}
	room := max(t.w-markerWidth, 0)
	used := 0
	for i, c := range t.cols {
		if c.Hidden || used >= room {
			continue
		}
		if used > 0 {
			b.WriteByte(' ')
			used++
		}
		text := c.Title
		if idx >= 0 {
			text = t.cell(idx, i)
		}
		w := min(t.widths[i], room-used)
		writeCell(b, text, w, c.Right)
		used += w
	}
	ui.WriteSpaces(b, room-used)
}

// footer is "row 12 of 100,000 · loading… · 3 marked · filter: abc".
func (t Table) footer(p *tablePaint) string {
	var b strings.Builder
	b.Grow(t.w + 48)
	style := p.muted
	if t.filtering {
		style = p.accent
	}
	b.WriteString(style[0])
	var text strings.Builder
	if shown := t.visibleLen(); shown > 0 {
		text.WriteString("row " + ui.FormatCount(t.cursor+1) + " of " + ui.FormatCount(shown))
	} else {
		text.WriteString("0 rows")
	}
	if t.filter != "" && t.visibleLen() != t.n {
		text.WriteString(" (" + ui.FormatCount(t.n) + " in all)")
	}
	if t.loading {
		text.WriteString(" · loading…")
	}
	if t.numMarked > 0 {
		text.WriteString(" · " + ui.FormatCount(t.numMarked) + " marked")
	}
	if t.filtering {
		text.WriteString(" · filter: " + t.filter + "▏")
	} else if t.filter != "" {
		text.WriteString(" · filter: " + t.filter)
	}
	ui.WriteFitted(&b, text.String(), t.w)
	b.WriteString(style[1])
	return b.String()
}

// printableASCII reports whether s is made of printable ASCII only, where
// a byte is a cell.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}
