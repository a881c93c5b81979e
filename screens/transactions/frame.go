package transactions

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
)

// frame is what View draws around the table: the heading and the pane of
// the selected transaction, built in Update and SetSize when what they
// show changes (a page, the selection, the size, the theme), so a frame
// only puts them together.
type frame struct {
	// current is false until the next refreshFrame: the data, the size
	// or the theme changed.
	current bool
	head    string
	detail  string
	// detailFor is the selection and size the detail was built for.
	detailFor detailKey
	// rowPre and selectedPre are what the table's row and selected-row
	// styles put before their text (highlightStatuses switches them back
	// on after a badge).
	rowPre, selectedPre string
	// detailTitle is the pane's title; danger is what the danger tone
	// puts around a decline reason.
	detailTitle string
	danger      [2]string
}

// detailKey is what the detail pane shows: the selected row (ok false for
// none) at a size.
type detailKey struct {
	row           int
	ok            bool
	width, height int
}

// staleFrame makes the next refreshFrame build everything again.
func (t *Screen) staleFrame() { t.frame.current = false }

// refreshFrame builds what changed since the last frame: everything after
// staleFrame, else the detail pane alone when the selection moved.
func (t *Screen) refreshFrame() {
	f := &t.frame
	row, ok := t.table.Cursor()
	key := detailKey{row: row, ok: ok, width: t.Width, height: t.Height}
	if f.current && key == f.detailFor {
		return
	}
	if !f.current {
		st := t.Deps.Styles
		f.head = st.Title.Render("Transactions") + "  " + st.Muted.Render(t.summary(t.Width-16))
		if t.export != nil {
			f.head = ansi.Truncate(t.exportLine(t.Width), t.Width, "…")
		}
		f.rowPre, _ = ui.WrapStyle(st.TableRow)
		f.selectedPre, _ = ui.WrapStyle(st.TableSelected)
		f.detailTitle = st.Subtitle.Render("Selected transaction")
		f.danger[0], f.danger[1] = ui.WrapStyle(st.Text(theme.ToneDanger))
	}
	f.detail = t.detailView(t.Width, detailHeight(t.Height))
	f.detailFor = key
	f.current = true
}

// transactionStandOut are the statuses drawn as badges in the list, in the order
// they are looked for.
var transactionStandOut = []struct {
	status string
	tone   theme.Tone
}{{apiclient.TxDeclined, theme.ToneDanger}, {apiclient.TxReverted, theme.ToneWarn}}

// writeHighlighted writes the table's view into b with DECLINED and
// REVERTED standing out: table.Table draws cells as plain text, so the status
// cell (the last column, padded to its width) is replaced by a badge of
// the same width, and the row's own style is switched back on after it.
// The header and the last line are written as they are.
func (t *Screen) writeHighlighted(b *strings.Builder, view string) {
	st := t.Deps.Styles
	for i := 0; ; i++ {
		line, rest, more := strings.Cut(view, "\n")
		if i > 0 {
			b.WriteByte('\n')
		}
		if i == 0 || !more {
			b.WriteString(line)
		} else {
			t.writeStatusLine(b, st, line)
		}
		if !more {
			return
		}
		view = rest
	}
}

// writeStatusLine writes one row of the table, its status as a badge when
// it is one that stands out.
func (t *Screen) writeStatusLine(b *strings.Builder, st *theme.Styles, line string) {
	for _, s := range transactionStandOut {
		cell := s.status + "  " // the 10-wide column holds 8 letters and 2 spaces
		j := strings.LastIndex(line, cell)
		if j < 0 {
			continue
		}
		pre := t.frame.rowPre
		if t.frame.selectedPre != "" && strings.Contains(line[:j], t.frame.selectedPre) {
			pre = t.frame.selectedPre
		}
		if j > 0 && line[j-1] == ' ' {
			// The badge's padding takes the column gap before it, so
			// its word starts where the plain statuses above and below
			// start, with colour or without.
			b.WriteString(line[:j-1])
			b.WriteString(st.Badge(s.status, s.tone))
			b.WriteString(pre)
			b.WriteByte(' ')
			b.WriteString(line[j+len(cell):])
			return
		}
		b.WriteString(line[:j])
		b.WriteString(st.Badge(s.status, s.tone))
		b.WriteString(pre)
		b.WriteString(line[j+len(cell):])
		return
	}
	b.WriteString(line)
}
