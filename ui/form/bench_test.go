package form_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/form"
	"cardterm/ui/uitest"
)

// benchForm is a form of twelve fields at 100x30, the size of the largest
// forms the screens open (a whitelist of several entries, an order).
func benchForm() *form.Form {
	st := theme.New(true, false)
	fields := make([]form.Field, 0, 12)
	for _, key := range []string{"name", "email", "phone", "line1", "line2", "city", "postcode", "country", "iban", "bic", "reference"} {
		fields = append(fields, form.Field{Key: key, Label: key, Value: "value of " + key})
	}
	fields = append(fields, form.Field{Key: "notes", Label: "Notes", Kind: form.FieldMultiline, Value: "first line\nsecond line"})
	f := form.New(&st, form.Spec{Title: "Beneficiary", Submit: "save", Fields: fields})
	f.SetSize(100, 30)
	f.Focus()
	return f
}

// BenchmarkFormKeyPress is one character typed into a field and the frame
// drawn after it.
func BenchmarkFormKeyPress(b *testing.B) {
	f := benchForm()
	uitest.BenchTypeAndErase(b, func(k tea.KeyPressMsg) { f.Update(k) }, func() { _ = f.View() }, "x")
}

// BenchmarkFormFocusMove is tab and shift+tab through the fields, each
// with the frame drawn after it.
func BenchmarkFormFocusMove(b *testing.B) {
	f := benchForm()
	uitest.BenchKeyPresses(b, func(k tea.KeyPressMsg) {
		f.Update(k)
		_ = f.View()
	}, "tab", "shift+tab", 8)
}
