package form

import (
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// A checklist (FieldChecklist) is one field of several values, each ticked
// or not. tab/↓ and shift+tab/↑ walk its values one by one and leave it
// past the first or last, so every value is one stop, as a row of check
// boxes would be; space ticks the value in focus.

// setTicked ticks exactly the comma-separated values of list that are
// among the choices.
func (fl *formField) setTicked(list string) {
	for i := range fl.ticked {
		fl.ticked[i] = false
	}
	for _, v := range strings.Split(list, ",") {
		if i := slices.Index(fl.spec.Choices, strings.TrimSpace(v)); i >= 0 {
			fl.ticked[i] = true
		}
	}
}

// tickedValues are the ticked choices in their order.
func (fl formField) tickedValues() []string {
	var out []string
	for i, on := range fl.ticked {
		if on {
			out = append(out, fl.spec.Choices[i])
		}
	}
	return out
}

// tick flips the value in focus.
func (fl *formField) tick() {
	if fl.choice < len(fl.ticked) {
		fl.ticked[fl.choice] = !fl.ticked[fl.choice]
		fl.err = ""
	}
}

// step moves inside a checklist by dir; false when the move leaves it (or
// the field is not a checklist).
func (fl *formField) step(dir int) bool {
	if fl.spec.Kind != FieldChecklist {
		return false
	}
	next := fl.choice + dir
	if next < 0 || next >= len(fl.spec.Choices) {
		return false
	}
	fl.choice = next
	return true
}

// stepFocused moves inside the focused checklist; false when focus should
// go to another field.
func (f *Form) stepFocused(dir int) bool {
	fl := f.focused()
	return fl != nil && fl.step(dir)
}

// setFocusFrom focuses field i, entered moving in dir: a checklist entered
// backwards starts on its last value.
func (f *Form) setFocusFrom(i, dir int) tea.Cmd {
	cmd := f.setFocus(i)
	if fl := f.focused(); fl != nil {
		if fl.spec.Kind == FieldChecklist {
			fl.choice = 0
			if dir < 0 {
				fl.choice = max(len(fl.spec.Choices)-1, 0)
			}
		}
	}
	return cmd
}

// Ticked is the ticked values of the checklist with that key, in order.
func (f *Form) Ticked(k string) []string {
	for _, fl := range f.fields {
		if fl.spec.Key == k && fl.spec.Kind == FieldChecklist {
			return fl.tickedValues()
		}
	}
	return nil
}

// hasChecklist reports whether any field is a checklist, so the hint says
// how to tick.
func (f *Form) hasChecklist() bool {
	return slices.ContainsFunc(f.fields, func(fl formField) bool { return fl.spec.Kind == FieldChecklist })
}

// checklistLines draws one line per value, "[x] value  note", each cut to
// width; focused says which value carries the cursor (-1: none).
func (fl formField) checklistLines(st *theme.Styles, width, focused int) []string {
	lines := make([]string, len(fl.spec.Choices))
	for i, c := range fl.spec.Choices {
		box := "[ ] "
		if fl.ticked[i] {
			box = "[x] "
		}
		text := box + sanitize.Text(c)
		if i == focused {
			text = st.Accent.Render(text)
		} else {
			text = st.Value.Render(text)
		}
		if note := fl.spec.Notes[c]; note != "" {
			text += "  " + st.Muted.Render(sanitize.Text(note))
		}
		lines[i] = ansi.Truncate(text, max(width, 1), "…")
	}
	return lines
}
