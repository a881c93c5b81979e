package form_test

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui/form"
	"cardterm/ui/uitest"
)

// The hint under the fields is one line at every width: the least needed
// parts drop first and "…" says some did; ctrl+s and esc stay longest.
func TestFormHintIsOneLineAtEveryWidth(t *testing.T) {
	st := theme.New(true, false)
	for _, tc := range []struct {
		width int
		want  string
	}{
		{120, "ctrl+s save · enter on the last field save · tab next field · esc closes · space on a list ticks"},
		{90, "ctrl+s save · tab next field · esc closes · space on a list ticks …"},
		{66, "ctrl+s save · esc closes · space on a list ticks …"},
		{40, "ctrl+s save · esc closes …"},
		{20, "ctrl+s save …"},
		{10, "…"},
	} {
		f := form.New(&st, form.Spec{Title: "Hook", Submit: "save", Fields: []form.Field{
			{Key: "name", Label: "Name"},
			{Key: "events", Label: "Events", Kind: form.FieldChecklist, Choices: []string{"card.activated"}},
		}})
		f.SetWidth(tc.width)
		lines := strings.Split(uitest.Plain(f.View()), "\n")
		hint := strings.TrimRight(lines[len(lines)-1], " ")
		if hint != tc.want {
			t.Errorf("width %d: hint %q, want %q", tc.width, hint, tc.want)
		}
		if w := ansi.StringWidth(hint); w > tc.width {
			t.Errorf("width %d: the hint is %d wide", tc.width, w)
		}
	}
}

// A form whose only field is a text area (a case note) offers neither
// enter (it adds a line there) nor tab (there is no other field).
func TestFormHintOffersNoKeyATextAreaTakes(t *testing.T) {
	st := theme.New(true, false)
	f := form.New(&st, form.Spec{Title: "Note", Submit: "save", Fields: []form.Field{
		{Key: "note", Label: "Note", Kind: form.FieldMultiline},
	}})
	f.SetWidth(120)
	lines := strings.Split(uitest.Plain(f.View()), "\n")
	hint := strings.TrimRight(lines[len(lines)-1], " ")
	if want := "ctrl+s save · esc closes"; hint != want {
		t.Errorf("hint %q, want %q", hint, want)
	}
}
