package form

import (
	"slices"
	"strings"

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

// choiceView draws every choice, the chosen one bracketed, in width cells.
func (fl formField) choiceView(st *theme.Styles, width int) string {
	parts := make([]string, len(fl.spec.Choices))
	for i, c := range fl.spec.Choices {
		name := sanitize.Text(c)
		if c == "" {
			name = sanitize.Text(fl.spec.Placeholder)
		}
		if i == fl.choice {
			parts[i] = st.Value.Render("[" + name + "]")
		} else {
			parts[i] = st.Muted.Render(" " + name + " ")
		}
	}
	return ansi.Truncate(strings.Join(parts, " "), max(width, 1), "…")
}
