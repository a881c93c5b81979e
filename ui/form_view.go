package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
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

// View draws the form in the width last set.
func (f *Form) View() string {
	st, width := f.st, f.width
	labelW := f.labelWidth()
	var b strings.Builder
	b.WriteString(st.Subtitle.Render(Sanitize(f.spec.Title)))
	for _, l := range f.spec.Lines {
		for _, part := range strings.Split(ansi.Wrap(Sanitize(l), width, " "), "\n") {
			b.WriteString("\n" + st.Muted.Render(part))
		}
	}
	b.WriteString("\n")
	for i, fl := range f.fields {
		mark := "  "
		if i == f.focus {
			mark = st.Accent.Render("› ")
		}
		label := st.Label.Render(fl.spec.Label + strings.Repeat(" ", labelW-ansi.StringWidth(fl.spec.Label)))
		if fl.spec.Kind == FieldMultiline {
			b.WriteString("\n" + mark + label)
			indent := strings.Repeat(" ", labelW+4)
			for _, line := range strings.Split(fl.area.View(), "\n") {
				b.WriteString("\n" + indent + line)
			}
		} else if fl.spec.Kind == FieldChecklist {
			cursor := -1
			if i == f.focus {
				cursor = fl.choice
			}
			indent := strings.Repeat(" ", labelW+4)
			for j, line := range fl.checklistLines(st, width-labelW-4, cursor) {
				first := "  " // the cursor goes on the value in focus
				if cursor == 0 {
					first = mark
				}
				switch {
				case j == 0:
					b.WriteString("\n" + first + label + "  " + line)
				case j == cursor:
					b.WriteString("\n" + st.Accent.Render("› ") + strings.Repeat(" ", labelW+2) + line)
				default:
					b.WriteString("\n" + indent + line)
				}
			}
		} else if fl.spec.Kind == FieldChoice {
			b.WriteString("\n" + mark + label + "  " + fl.choiceView(st, width-labelW-4))
		} else {
			b.WriteString("\n" + mark + label + "  " + fl.input.View())
		}
		if fl.err != "" {
			indent := min(labelW+4, max(width/3, 2))
			msg := ansi.Wrap("✗ "+Sanitize(fl.err), max(width-indent, 10), " ")
			for _, part := range strings.Split(msg, "\n") {
				b.WriteString("\n" + strings.Repeat(" ", indent) + st.Text(theme.ToneDanger).Render(part))
			}
		}
	}
	b.WriteString("\n\n")
	switch {
	case f.busy:
		b.WriteString(st.Text(theme.ToneInfo).Render("sending… (esc cancels)"))
	case f.problem != "":
		for _, part := range strings.Split(ansi.Wrap(Sanitize(f.problem), width, " "), "\n") {
			b.WriteString(st.Text(theme.ToneDanger).Render(part) + "\n")
		}
	default:
		hint := "ctrl+s " + f.spec.Submit + " · enter on the last field " + f.spec.Submit + " · tab next field · esc closes"
		if f.hasChoice() {
			hint += " · space changes a choice"
		}
		if f.hasChecklist() {
			hint += " · space ticks"
		}
		b.WriteString(st.Muted.Render(ansi.Wrap(hint, width, " ")))
		if f.spec.Note != "" {
			b.WriteString("\n" + st.Muted.Render(ansi.Wrap(Sanitize(f.spec.Note), width, " ")))
		}
	}
	return strings.TrimRight(b.String(), "\n")
}
