package form_test

import (
	"strings"
	"testing"

	"cardterm/theme"
	"cardterm/ui/form"
	"cardterm/ui/uitest"
)

// A click on a field's line gives it the focus, a text area's lines
// included; the title, the blank lines and the foot take none.
func TestFormClickFocusesTheFieldDrawnThere(t *testing.T) {
	f := newTestForm()
	lines := strings.Split(uitest.Plain(f.View()), "\n")
	lineOf := func(text string) int {
		for i, l := range lines {
			if strings.Contains(l, text) {
				return i
			}
		}
		t.Fatalf("the form lacks %q:\n%s", text, strings.Join(lines, "\n"))
		return -1
	}
	if _, ok := f.ClickLine(lineOf("Radius")); !ok || f.Focused() != "radius" {
		t.Fatalf("click on Radius: focus %q", f.Focused())
	}
	if _, ok := f.ClickLine(lineOf("Notes") + 1); !ok || f.Focused() != "notes" {
		t.Fatalf("click inside the text area: focus %q", f.Focused())
	}
	if _, ok := f.ClickLine(lineOf("Background")); !ok || f.Focused() != "backgroundColor" {
		t.Fatalf("click on Background: focus %q", f.Focused())
	}
	for _, y := range []int{0, 1, len(lines) - 1, len(lines) + 3} {
		if _, ok := f.ClickLine(y); ok {
			t.Errorf("a click on line %d took a field (%q)", y, f.Focused())
		}
	}
	if f.Focused() != "backgroundColor" {
		t.Errorf("clicks off the fields moved the focus to %q", f.Focused())
	}
}

// A secret field says it is not plain: presenter mode shows ••• for it.
func TestFormSaysWhetherItsFieldInFocusIsPlain(t *testing.T) {
	st := theme.New(true, false)
	f := form.New(&st, form.Spec{Title: "Key", Fields: []form.Field{
		{Key: "name", Label: "Name"}, {Key: "secret", Label: "Secret key", Kind: form.FieldSecret},
	}})
	f.SetWidth(60)
	f.Focus()
	if !f.TypingPlain() {
		t.Error("a text field is not plain")
	}
	f.Update(uitest.Key("tab"))
	if f.TypingPlain() {
		t.Error("a secret field says it is plain")
	}
}
