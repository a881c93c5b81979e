package form

import (
	"slices"

	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// cycle moves a choice field on by dir (+1 or -1), wrapping around.
func (fl *formField) cycle(dir int) {
	if n := len(fl.spec.Choices); n > 0 {
		fl.choice = ((fl.choice+dir)%n + n) % n
		fl.err = ""
	}
}

// SetValue replaces the value of the field with that key, for a form that
// fills one field from another (a policy that requires a consent). A
// choice field takes only one of its choices; a checklist takes the
// comma-separated values to tick.
func (f *Form) SetValue(k, value string) {
	for i := range f.fields {
		fl := &f.fields[i]
		if fl.spec.Key != k {
			continue
		}
		switch fl.spec.Kind {
		case FieldChoice:
			if j := slices.Index(fl.spec.Choices, value); j >= 0 {
				fl.choice = j
			}
		case FieldChecklist:
			fl.setTicked(value)
		case FieldMultiline:
			fl.area.SetValue(value)
		default:
			fl.input.SetValue(value)
		}
	}
}

// hasChoice reports whether any field is a choice, so the hint says how
// to change one.
func (f *Form) hasChoice() bool {
	return slices.ContainsFunc(f.fields, func(fl formField) bool { return fl.spec.Kind == FieldChoice })
}

// choiceLines draws every choice, the chosen one bracketed, in width
// cells: choices that do not fit on one line go on to the next, so none
// is cut; only a single choice wider than width is shortened.
func (fl formField) choiceLines(st *theme.Styles, width int) []string {
	width = max(width, 1)
	var lines []string
	line, lineWidth := "", 0
	for i, c := range fl.spec.Choices {
		name := sanitize.Text(c)
		if c == "" {
			name = sanitize.Text(fl.spec.Placeholder)
		}
		part := " " + name + " "
		if i == fl.choice {
			part = "[" + name + "]"
		}
		part = ansi.Truncate(part, width, "…")
		partWidth := ansi.StringWidth(part)
		if i == fl.choice {
			part = st.Value.Render(part)
		} else {
			part = st.Muted.Render(part)
		}
		switch {
		case lineWidth == 0:
			line, lineWidth = part, partWidth
		case lineWidth+1+partWidth <= width:
			line, lineWidth = line+" "+part, lineWidth+1+partWidth
		default:
			lines = append(lines, line)
			line, lineWidth = part, partWidth
		}
	}
	return append(lines, line)
}
