package form

import (
	"slices"
	"strings"

	"cardterm/ui"

	tea "charm.land/bubbletea/v2"
)

// submit runs every field's check; the form submits only when all pass,
// and otherwise focuses the first field in error.
func (f *Form) submit() (Event, tea.Cmd) {
	var errs []FieldError
	for _, fl := range f.fields {
		if fl.spec.Check == nil {
			continue
		}
		if m := fl.spec.Check(f.Value(fl.spec.Key)); m != "" {
			errs = append(errs, FieldError{Field: fl.spec.Key, Message: m})
		}
	}
	if len(errs) > 0 {
		return Nothing, f.SetErrors("", errs)
	}
	f.clearErrors()
	return Submit, nil
}

func (f *Form) clearErrors() {
	for i := range f.fields {
		f.fields[i].err = ""
	}
	f.problem = ""
}

// SetErrors shows each error under the field it names (its whole name, as
// "wallets[1].walletAddress" keys a field of a form with one group per
// entry; else by the last part of a dotted name) and the rest, with
// message, under the form. It ends a
// busy state and focuses the first field in error. What was typed stays.
func (f *Form) SetErrors(message string, errs []FieldError) tea.Cmd {
	f.busy = false
	f.clearErrors()
	var rest []string
	first := -1
	for _, e := range errs {
		name := e.Field
		if !slices.ContainsFunc(f.fields, func(fl formField) bool { return fl.spec.Key == name }) {
			if i := strings.LastIndex(name, "."); i >= 0 {
				name = name[i+1:]
			}
		}
		found := false
		for i := range f.fields {
			if name != "" && f.fields[i].spec.Key == name {
				if f.fields[i].err == "" {
					f.fields[i].err = ui.CutText(e.Message, ui.MaxMessageText)
				}
				found = true
				if first < 0 || i < first {
					first = i
				}
			}
		}
		if !found {
			rest = append(rest, strings.TrimSpace(e.Field+" "+e.Message))
		}
	}
	if message != "" || len(rest) > 0 {
		f.problem = ui.CutText(strings.TrimSpace(message+" "+strings.Join(rest, "; ")), ui.MaxMessageText)
	}
	if first >= 0 {
		return f.setFocus(first)
	}
	return nil
}

// SetProblem shows a message under the form (a failure that names no
// field) and ends a busy state.
func (f *Form) SetProblem(message string) {
	f.busy = false
	f.problem = ui.CutText(message, ui.MaxMessageText)
}

// ShowsError reports whether the form shows an error, under a field or
// under the form: what a screen draws about the values (an estimate, a
// preview) must not contradict it.
func (f *Form) ShowsError() bool {
	return f.problem != "" || slices.ContainsFunc(f.fields, func(fl formField) bool { return fl.err != "" })
}
