package form

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/textinput"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// SetWidth sets the width the form draws in.
func (f *Form) SetWidth(w int) {
	f.width = max(w, 10)
	labelW := f.labelWidth()
	inputW := max(f.width-labelW-4, 10)
	for i := range f.fields {
		if f.fields[i].spec.Kind == FieldMultiline {
			f.fields[i].area.SetWidth(inputW)
		} else {
			f.fields[i].input.SetWidth(min(inputW, 64))
		}
	}
}

func (f *Form) labelWidth() int {
	w := 0
	for _, fl := range f.fields {
		w = max(w, ansi.StringWidth(fl.spec.Label))
	}
	return w
}

// SetHeight bounds the lines the form draws (0: no bound). A taller form
// scrolls its fields so the one in focus stays on screen; the title and
// the line under the fields stay put.
func (f *Form) SetHeight(h int) { f.height = max(h, 0) }

// SetSize gives a form that has a body of its own (not a panel beside
// other things) the whole body: its width, and its height to scroll in.
func (f *Form) SetSize(width, height int) {
	f.SetWidth(width)
	f.SetHeight(height)
}

// View draws the form in the width (and height) last set.
func (f *Form) View() string {
	st, width := f.st, f.width
	head := []string{st.Subtitle.Render(sanitize.Text(f.spec.Title))}
	for _, l := range f.spec.Lines {
		for _, part := range strings.Split(ansi.Wrap(sanitize.Text(l), width, " "), "\n") {
			head = append(head, st.Muted.Render(part))
		}
	}
	head = append(head, "")
	body, focusFrom, focusTo := f.fieldLines()
	foot := append([]string{""}, f.footLines()...)
	if f.height > 0 && len(head)+len(body)+len(foot) > f.height {
		body = scrollLines(st, body, focusFrom, focusTo, f.height-len(head)-len(foot))
	}
	out := strings.Join(append(append(head, body...), foot...), "\n")
	return strings.TrimRight(out, "\n")
}

// fieldLines draws the fields, each group under its heading, and says
// which lines show the field in focus (the value in focus of a checklist).
func (f *Form) fieldLines() (lines []string, focusFrom, focusTo int) {
	st, width := f.st, f.width
	labelW := f.labelWidth()
	for i, fl := range f.fields {
		if g := fl.spec.Group; g != "" && (i == 0 || f.fields[i-1].spec.Group != g) {
			if len(lines) > 0 {
				lines = append(lines, "")
			}
			lines = append(lines, f.groupHeading(g))
		}
		if i == f.focus {
			focusFrom = len(lines)
		}
		mark := "  "
		if i == f.focus {
			mark = st.Accent.Render("› ")
		}
		label := st.Label.Render(fl.spec.Label + strings.Repeat(" ", labelW-ansi.StringWidth(fl.spec.Label)))
		switch fl.spec.Kind {
		case FieldMultiline:
			lines = append(lines, mark+label)
			indent := strings.Repeat(" ", labelW+4)
			for _, line := range strings.Split(sanitize.ShowInvisible(fl.area.View()), "\n") {
				lines = append(lines, indent+line)
			}
		case FieldChecklist:
			cursor := -1
			if i == f.focus {
				cursor = fl.choice
				focusFrom = len(lines) + fl.choice
			}
			indent := strings.Repeat(" ", labelW+4)
			for j, line := range fl.checklistLines(st, width-labelW-4, cursor) {
				first := "  " // the cursor goes on the value in focus
				if cursor == 0 {
					first = mark
				}
				switch {
				case j == 0:
					lines = append(lines, first+label+"  "+line)
				case j == cursor:
					lines = append(lines, st.Accent.Render("› ")+strings.Repeat(" ", labelW+2)+line)
				default:
					lines = append(lines, indent+line)
				}
			}
		case FieldChoice:
			indent := strings.Repeat(" ", labelW+4)
			for j, line := range fl.choiceLines(st, width-labelW-4) {
				if j == 0 {
					line = mark + label + "  " + line
				} else {
					line = indent + line
				}
				lines = append(lines, line)
			}
		default:
			lines = append(lines, f.inputLines(fl, mark+label+"  ", labelW+4)...)
		}
		if fl.err != "" {
			indent := min(labelW+4, max(width/3, 2))
			msg := ansi.Wrap("✗ "+sanitize.Text(fl.err), max(width-indent, 10), " ")
			for _, part := range strings.Split(msg, "\n") {
				lines = append(lines, strings.Repeat(" ", indent)+st.Text(theme.ToneDanger).Render(part))
			}
		}
		if i == f.focus {
			focusTo = len(lines) - 1
			if fl.spec.Kind == FieldChecklist && fl.err == "" {
				focusTo = focusFrom
			}
		}
	}
	return lines, focusFrom, focusTo
}

// groupHeading names a group of fields, marked when one of them is wrong.
func (f *Form) groupHeading(group string) string {
	for _, fl := range f.fields {
		if fl.spec.Group == group && fl.err != "" {
			return f.st.Text(theme.ToneDanger).Render("✗ " + sanitize.Text(group))
		}
	}
	return f.st.Subtitle.Render(sanitize.Text(group))
}

// footLines say what is happening, what went wrong or how to send.
func (f *Form) footLines() []string {
	st, width := f.st, f.width
	switch {
	case f.busy:
		return []string{st.Text(theme.ToneInfo).Render("sending… (esc cancels)")}
	case f.problem != "":
		var out []string
		for _, part := range strings.Split(ansi.Wrap(sanitize.Text(f.problem), width, " "), "\n") {
			out = append(out, st.Text(theme.ToneDanger).Render(part))
		}
		return out
	}
	out := []string{st.Muted.Render(fitHint(f.hintParts(), width))}
	if note := sanitize.Text(f.spec.Note); note != "" {
		// one block, split into its lines so the height counts them
		out = append(out, strings.Split(st.Muted.Render(ansi.Wrap(note, width, " ")), "\n")...)
	}
	return out
}

// hintPart is a piece of the hint under the fields; rank says which go
// first where the width is short (the highest rank first).
type hintPart struct {
	text string
	rank int
}

// hintParts say how to send and leave, most needed first in rank.
func (f *Form) hintParts() []hintPart {
	if len(f.fields) == 1 && f.keys.SubmitLast.Enabled() {
		return []hintPart{{"enter or ctrl+s " + f.spec.Submit, 0}, {"esc closes", 1}}
	}
	// enter sends from the last one-line field only: in a text area it
	// adds a line, and one field alone has no next field to tab to.
	parts := []hintPart{{"ctrl+s " + f.spec.Submit, 0}}
	switch last := f.lastLine(); {
	case last == len(f.fields)-1:
		parts = append(parts, hintPart{"enter on the last field " + f.spec.Submit, 4})
	case last >= 0:
		parts = append(parts, hintPart{"enter on " + f.fields[last].spec.Label + " " + f.spec.Submit, 4})
	}
	if len(f.fields) > 1 {
		parts = append(parts, hintPart{"tab next field", 3})
	}
	parts = append(parts, hintPart{"esc closes", 1})
	if f.hasChoice() {
		parts = append(parts, hintPart{"space changes a choice", 2})
	}
	if f.hasChecklist() {
		parts = append(parts, hintPart{"space on a list ticks", 2})
	}
	return parts
}

// fitHint lays the parts on one line of width as bubbles' help does at
// narrow widths: the parts of highest rank drop until the rest fit, and
// "…" says some did; a hint is never wrapped or cut.
func fitHint(parts []hintPart, width int) string {
	kept := slices.Clone(parts)
	for {
		texts := make([]string, len(kept))
		for i, p := range kept {
			texts[i] = p.text
		}
		line := strings.Join(texts, " · ")
		if len(kept) < len(parts) {
			line = strings.TrimPrefix(line+" …", " ")
		}
		if ansi.StringWidth(line) <= width || len(kept) == 0 {
			return line
		}
		drop := 0
		for i, p := range kept {
			if p.rank >= kept[drop].rank {
				drop = i
			}
		}
		kept = slices.Delete(kept, drop, drop+1)
	}
}

// scrollLines keeps room lines of body (at least three) around the lines
// from..to, saying on the first and last how many are hidden above and
// below.
func scrollLines(st *theme.Styles, body []string, from, to, room int) []string {
	room = max(room, 3)
	if len(body) <= room {
		return body
	}
	inner := room - 2 // a line above and one below say what is hidden
	start := max(min(to-inner+1, len(body)-inner), 0)
	start = min(start, from)
	end := min(start+inner, len(body))
	out := make([]string, 0, room)
	if start > 0 {
		out = append(out, st.Muted.Render(fmt.Sprintf("↑ %d more %s above", start, lines(start))))
	} else {
		out = append(out, "")
	}
	out = append(out, body[start:end]...)
	if end < len(body) {
		out = append(out, st.Muted.Render(fmt.Sprintf("↓ %d more %s below", len(body)-end, lines(len(body)-end))))
	}
	return out
}

func lines(n int) string {
	if n == 1 {
		return "line"
	}
	return "lines"
}

// inputLines draws a one-line field after lead: its text input, which
// shows a window of a value wider than itself; or, when the frame is read
// out (theme.Styles.WholeText, the accessible mode), such a value whole,
// wrapped under itself, since a reader has no other way to check it.
func (f *Form) inputLines(fl formField, lead string, indent int) []string {
	value := fl.input.Value()
	if !f.st.WholeText || fl.input.EchoMode != textinput.EchoNormal || ansi.StringWidth(value) < fl.input.Width() {
		return []string{lead + sanitize.ShowInvisible(fl.input.View())}
	}
	parts := strings.Split(ansi.Hardwrap(sanitize.ShowInvisible(value), max(f.width-indent, 10), false), "\n")
	lines := []string{lead + parts[0]}
	for _, part := range parts[1:] {
		lines = append(lines, strings.Repeat(" ", indent)+part)
	}
	return lines
}
