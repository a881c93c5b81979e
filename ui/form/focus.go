package form

import (
	"slices"

	tea "charm.land/bubbletea/v2"
)

// Which field has the keys: the first, a named one, or none (a form
// that comes filled, where enter sends and tab chooses), and the key
// bindings that follow from it.

// Focus puts the cursor in the first field.
func (f *Form) Focus() tea.Cmd { return f.setFocus(0) }

// FocusNothing shows the form with no field in focus, for a form opened
// by a key whose fields all have defaults: the next printable key must not
// land in a field the user has not chosen. enter sends the values shown,
// tab or ↓ (or a click) chooses a field, esc closes.
func (f *Form) FocusNothing() tea.Cmd {
	f.focus = noFocus
	for j := range f.fields {
		f.fields[j].input.Blur()
		f.fields[j].area.Blur()
	}
	f.syncKeys()
	return nil
}

// noFocus is the focus of a form whose user has chosen no field yet.
const noFocus = -1

// focused is the field in focus, nil when none is.
func (f *Form) focused() *formField {
	if f.focus < 0 || f.focus >= len(f.fields) {
		return nil
	}
	return &f.fields[f.focus]
}

// FocusField puts the cursor in the field with that key (the first field
// when none has it), for a form rebuilt with more or fewer fields.
func (f *Form) FocusField(k string) tea.Cmd {
	return f.setFocus(max(slices.IndexFunc(f.fields, func(fl formField) bool { return fl.spec.Key == k }), 0))
}

// Focused is the key of the field in focus.
func (f *Form) Focused() string {
	if fl := f.focused(); fl != nil {
		return fl.spec.Key
	}
	return ""
}

func (f *Form) setFocus(i int) tea.Cmd {
	n := len(f.fields)
	if n == 0 {
		return nil
	}
	f.focus = (i%n + n) % n
	var cmd tea.Cmd
	for j := range f.fields {
		fl := &f.fields[j]
		if j == f.focus {
			switch fl.spec.Kind {
			case FieldChoice, FieldChecklist:
				// no cursor: space and the arrows change it
			case FieldMultiline:
				cmd = fl.area.Focus()
			default:
				cmd = fl.input.Focus()
			}
			continue
		}
		fl.input.Blur()
		fl.area.Blur()
	}
	f.syncKeys()
	return cmd
}

// syncKeys makes the help say what enter and the arrows do in the focused
// field: in a text area they edit, so only tab moves on.
func (f *Form) syncKeys() {
	multiline := f.focusedKind() == FieldMultiline
	if multiline {
		f.keys.Next.SetKeys("tab")
		f.keys.Next.SetHelp("tab", "next field")
		f.keys.Prev.SetKeys("shift+tab")
		f.keys.Prev.SetHelp("shift+tab", "previous field")
	} else {
		f.keys.Next.SetKeys("tab", "down")
		f.keys.Next.SetHelp("tab/↓", "next field")
		f.keys.Prev.SetKeys("shift+tab", "up")
		f.keys.Prev.SetHelp("shift+tab/↑", "previous field")
	}
	f.keys.SubmitLast.SetEnabled(!multiline)
	// A form of one field has nowhere to move: tab is not offered (but
	// for choosing the field, when none is chosen yet).
	f.keys.Next.SetEnabled(len(f.fields) > 1 || f.focus == noFocus)
	f.keys.Prev.SetEnabled(len(f.fields) > 1)
	if f.focus == noFocus {
		f.keys.Next.SetHelp("tab/↓", "choose a field")
	}
	choice := f.focusedKind() == FieldChoice
	f.keys.ChoiceNext.SetEnabled(choice)
	f.keys.ChoicePrev.SetEnabled(choice)
	f.keys.Tick.SetEnabled(f.focusedKind() == FieldChecklist)
	if f.focus == f.lastLine() || f.focus == noFocus {
		f.keys.SubmitLast.SetHelp("enter", f.spec.Submit)
	} else {
		f.keys.SubmitLast.SetHelp("enter", "next field")
	}
}

func (f *Form) focusedKind() FieldKind {
	if fl := f.focused(); fl != nil {
		return fl.spec.Kind
	}
	return FieldText
}

// lastLine is the last one-line field: enter there sends.
func (f *Form) lastLine() int {
	for i := len(f.fields) - 1; i >= 0; i-- {
		if f.fields[i].spec.Kind != FieldMultiline {
			return i
		}
	}
	return -1
}
