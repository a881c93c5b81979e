package screenkit

import (
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"cardterm/domain/humantime"

	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// Field is one label/value line of a detail view. Values are gateway data
// and are sanitized when rendered.
type Field struct {
	Label string
	Value string
	// Styled, when set, is drawn instead of Value (badges); it is built
	// from sanitized text by the caller.
	Styled string
}

// RenderFields draws fields as an aligned two-column list that fits width.
// Labels are sanitized too: extra fields and metadata take theirs from the
// gateway's JSON keys. It writes the styles' escape sequences around the
// text rather than rendering each field through lipgloss, so a detail
// pane redrawn on every key press stays cheap.
func RenderFields(s *theme.Styles, fields []Field, width int) string {
	p := fieldPaintFor(s)
	labels := make([]string, len(fields))
	labelWidth := 0
	for i, f := range fields {
		labels[i] = sanitize.Text(f.Label)
		labelWidth = max(labelWidth, ui.CellWidth(labels[i]))
	}
	valueWidth := max(width-labelWidth-2, 8)
	var b strings.Builder
	b.Grow(len(fields) * (width + 32))
	for i, f := range fields {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.label[0])
		b.WriteString(labels[i])
		ui.WriteSpaces(&b, labelWidth-ui.CellWidth(labels[i]))
		b.WriteString(p.label[1])
		switch text := sanitize.Text(f.Value); {
		case f.Styled != "":
			// A badge's padding is its first cell: it takes one cell of
			// the gap, so its word lines up with the values above and
			// below (with colour or without).
			gap := "  "
			if strings.HasPrefix(ansi.Strip(f.Styled), " ") {
				gap = " "
			}
			b.WriteString(gap)
			writeWrapped(&b, f.Styled, valueWidth, labelWidth+2)
		case text == "":
			b.WriteString("  ")
			b.WriteString(p.muted[0])
			b.WriteString("—")
			b.WriteString(p.muted[1])
		default:
			b.WriteString("  ")
			b.WriteString(p.value[0])
			if ui.CellWidth(text) > valueWidth {
				text = ui.Shorten(text, valueWidth)
			}
			b.WriteString(text)
			b.WriteString(p.value[1])
		}
	}
	return b.String()
}

// LabelValue is "label value" in the Label and Value styles, written
// around the text rather than rendered through lipgloss. Both are
// sanitized by the caller.
func LabelValue(s *theme.Styles, label, value string) string {
	p := fieldPaintFor(s)
	return p.label[0] + label + p.label[1] + " " + p.value[0] + value + p.value[1]
}

// fieldPaint is what the Label, Value and Muted styles put around text,
// worked out again only when the theme changes.
type fieldPaint struct {
	st                  *theme.Styles
	dark, noColor       bool
	label, value, muted [2]string
}

var (
	fieldPaintMu   sync.Mutex
	lastFieldPaint fieldPaint
)

func fieldPaintFor(s *theme.Styles) fieldPaint {
	fieldPaintMu.Lock()
	defer fieldPaintMu.Unlock()
	p := &lastFieldPaint
	if p.st != s || p.dark != s.IsDark || p.noColor != s.NoColor {
		wrap := func(style lipgloss.Style) [2]string {
			pre, post := ui.WrapStyle(style)
			return [2]string{pre, post}
		}
		*p = fieldPaint{st: s, dark: s.IsDark, noColor: s.NoColor,
			label: wrap(s.Label), value: wrap(s.Value), muted: wrap(s.Muted)}
	}
	return *p
}

// ExtraFields turns the fields the gateway sent beyond the interface into
// detail lines, so nothing the server says is hidden.
func ExtraFields(extra apiclient.Extra) []Field {
	keys := slices.Sorted(maps.Keys(extra))
	out := make([]Field, 0, len(keys))
	for _, k := range keys {
		v := strings.TrimSpace(string(extra[k]))
		if len(v) >= 2 && v[0] == '"' {
			v = strings.Trim(v, `"`)
		}
		// An object (a card's shipping) is a line per member, as
		// the other fields are, rather than a line of raw JSON.
		if members := apiclient.RawJSON(v).Fields(); strings.HasPrefix(v, "{") && len(members) > 0 {
			for _, m := range members {
				out = append(out, Field{Label: Label(k + "." + m.Path), Value: FormatTime(m.Value)})
			}
			continue
		}
		// Labels in the app's one case style, timestamps as every date.
		out = append(out, Field{Label: Label(k), Value: FormatTime(v)})
	}
	return out
}

func PadRight(s string, width int) string {
	if w := ansi.StringWidth(s); w < width {
		return s + strings.Repeat(" ", width-w)
	}
	return s
}

// Section renders a titled block.
func Section(s *theme.Styles, title, body string) string {
	return s.Subtitle.Render(title) + "\n" + body
}

// LayoutLevel picks which of a table's three layouts a body width takes:
// 2 (wide) from wide cells on, 1 (medium) from medium, else 0 (narrow).
func LayoutLevel(width, medium, wide int) int {
	switch {
	case width >= wide:
		return 2
	case width >= medium:
		return 1
	}
	return 0
}

// Place fits content into exactly width x height, top-left aligned; lines
// are fitted, never re-rendered, so a frame costs what its text costs.
func Place(content string, width, height int) string {
	return ui.FitBlock(content, width, height)
}

// writeWrapped writes a styled value (a badge and its hint, a sentence)
// in width cells: wrapped at spaces onto lines indented by indent, so a
// sentence is read whole rather than cut mid-word at the screen's edge.
func writeWrapped(b *strings.Builder, styled string, width, indent int) {
	if ui.CellWidth(styled) <= width {
		b.WriteString(styled)
		return
	}
	for i, line := range strings.Split(ansi.Wrap(styled, max(width, 8), " "), "\n") {
		if i > 0 {
			b.WriteByte('\n')
			ui.WriteSpaces(b, indent)
		}
		b.WriteString(line)
	}
}

// SideBySide puts two blocks of lines next to each other: each line of left
// fitted to leftWidth, then gap, then the line of right; as many lines as
// the longer block. Detail panes redrawn on every key press use it rather
// than lipgloss.JoinHorizontal, which renders both blocks again.
func SideBySide(left, right string, leftWidth int, gap string) string {
	var b strings.Builder
	b.Grow(len(left) + len(right) + 64)
	for i := 0; left != "" || right != "" || i == 0; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		var l, r string
		l, left, _ = strings.Cut(left, "\n")
		r, right, _ = strings.Cut(right, "\n")
		ui.WriteFitted(&b, l, leftWidth)
		b.WriteString(gap)
		b.WriteString(r)
	}
	return b.String()
}

// BlockWidth is the width of block's widest line, trailing blanks left
// out: how wide a column of fields really is, so a second column can sit
// beside it rather than half a wide terminal away.
func BlockWidth(block string) int {
	w := 0
	for _, line := range strings.Split(block, "\n") {
		w = max(w, ui.CellWidth(strings.TrimRight(ansi.Strip(line), " ")))
	}
	return w
}

// Inset moves a block down by top blank lines and right by left spaces:
// lipgloss's Padding for a body, without rendering it again.
func Inset(block string, top, left int) string {
	pad := strings.Repeat(" ", left)
	return strings.Repeat("\n", top) + pad + strings.ReplaceAll(block, "\n", "\n"+pad)
}

// OrDash shows an optional gateway value, "—" when absent.
func OrDash(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// FormatLeft shows a remaining duration the app's one way ("5 h 59 min",
// "12 min", "45 s", "expired"), to the minute past a minute.
func FormatLeft(d time.Duration) string {
	switch {
	case d <= 0:
		return "expired"
	case d >= time.Minute:
		d = d.Truncate(time.Minute)
	}
	return humantime.Duration(d)
}

// NewInput is a text input styled from the theme (bubbles' defaults are
// for dark terminals and ignore NO_COLOR), with a steady cursor.
func NewInput(st *theme.Styles) textinput.Model {
	in := textinput.New()
	in.SetStyles(ui.InputStyles(st))
	return in
}

// DateOnly is the date part of an ISO 8601 timestamp, or the text as it is.
func DateOnly(ts string) string {
	if len(ts) >= 10 && ts[4] == '-' {
		return ts[:10]
	}
	return ts
}

// Plural picks the word for n things.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
