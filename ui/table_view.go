package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// markerWidth is the mark column at the left of each row ("● ").
const markerWidth = 2

// TableKeyMap is the keys of a table.
type TableKeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
	Mark, Filter                          key.Binding
	Accept, ClearFilter, Backspace        key.Binding
}

// TableKeys builds the table keys (arrows or j/k move, space
// marks, / filters).
func TableKeys() TableKeyMap {
	return TableKeyMap{
		Up:          key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:        key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:      key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Home:        key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "first")),
		End:         key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "last")),
		Mark:        key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "mark")),
		Filter:      key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter")),
		Accept:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "apply filter")),
		ClearFilter: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		Backspace:   key.NewBinding(key.WithKeys("backspace"), key.WithHelp("backspace", "delete")),
	}
}

// ShortHelp implements help.KeyMap.
func (k TableKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Mark, k.Filter}
}

// FullHelp implements help.KeyMap.
func (k TableKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Home, k.End},
		{k.Mark, k.Filter, k.Accept, k.ClearFilter},
	}
}

// wrapStyle splits a style's rendering around its text, so many rows can be
// styled by concatenation instead of a lipgloss render each.
func wrapStyle(s lipgloss.Style) (pre, post string) {
	const mark = "\x00"
	out := s.Render(mark)
	if i := strings.Index(out, mark); i >= 0 {
		return out[:i], out[i+len(mark):]
	}
	return "", ""
}

// View draws the table in exactly its size: header, the visible rows, the
// footer right under them, and blank lines below. Only visible rows are
// sanitized, cut and styled.
func (t Table) View() string {
	if t.w <= 0 || t.h <= 0 {
		return ""
	}
	if t.h == 1 { // no room for a header or rows: the footer says where we are
		return t.footer()
	}
	var b strings.Builder
	b.Grow((t.w + 32) * t.h)
	lines := 0
	line := func(s string) {
		if lines > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
		lines++
	}

	// Header.
	var hb strings.Builder
	hb.WriteString(strings.Repeat(" ", markerWidth))
	first := true
	for i, c := range t.cols {
		if c.Hidden {
			continue
		}
		if !first {
			hb.WriteByte(' ')
		}
		first = false
		hb.WriteString(fitCell(c.Title, t.widths[i], c.Right))
	}
	line(t.st.TableHeader.Render(FitLine(hb.String(), t.w)))

	rowPre, rowPost := wrapStyle(t.st.TableRow)
	selPre, selPost := wrapStyle(t.st.TableSelected)
	markPre, markPost := wrapStyle(t.st.TableMarked)

	bh := t.bodyHeight()
	var rb strings.Builder
	for n := 0; n < bh && lines < t.h-1; n++ {
		p := t.offset + n
		if p >= t.visibleLen() {
			if n == 0 {
				msg := "no rows"
				if t.filter != "" && t.n > 0 {
					msg = "no row matches the filter"
				}
				line(t.st.Muted.Render(FitLine("  "+msg, t.w)))
			}
			break
		}
		idx := t.visibleRow(p)
		rb.Reset()
		first := true
		for i, c := range t.cols {
			if c.Hidden {
				continue
			}
			if !first {
				rb.WriteByte(' ')
			}
			first = false
			rb.WriteString(fitCell(t.cell(idx, i), t.widths[i], c.Right))
		}
		if t.w <= markerWidth { // too narrow for any cell: the marker column alone
			mark := "  "
			if p == t.cursor {
				mark = "› "
			}
			line(FitLine(mark, t.w))
			continue
		}
		text := FitLine(rb.String(), t.w-markerWidth)
		marker := "  "
		marked := t.isMarked(idx)
		if marked {
			marker = markPre + "●" + markPost + " "
		}
		if p == t.cursor {
			if marked {
				marker = selPre + "●" + " " + selPost
			} else {
				marker = selPre + "› " + selPost
			}
			line(marker + selPre + text + selPost)
		} else {
			line(marker + rowPre + text + rowPost)
		}
	}
	// The footer, and the filter typed in it, sit right under the last
	// row, not at the bottom of a mostly empty table.
	line(t.footer())
	for lines < t.h {
		line(strings.Repeat(" ", t.w))
	}
	return b.String()
}

// footer is "row 12 of 100,000 · loading… · 3 marked · filter: abc".
func (t Table) footer() string {
	var parts []string
	if shown := t.visibleLen(); shown > 0 {
		parts = append(parts, "row "+FormatCount(t.cursor+1)+" of "+FormatCount(shown))
	} else {
		parts = append(parts, "0 rows")
	}
	if t.filter != "" && t.visibleLen() != t.n {
		parts[0] += " (" + FormatCount(t.n) + " in all)"
	}
	if t.loading {
		parts = append(parts, "loading…")
	}
	if t.numMarked > 0 {
		parts = append(parts, FormatCount(t.numMarked)+" marked")
	}
	if t.filtering {
		parts = append(parts, "filter: "+t.filter+"▏")
	} else if t.filter != "" {
		parts = append(parts, "filter: "+t.filter)
	}
	s := strings.Join(parts, " · ")
	if t.filtering {
		return t.st.Accent.Render(FitLine(s, t.w))
	}
	return t.st.Muted.Render(FitLine(s, t.w))
}
