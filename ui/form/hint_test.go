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

// The hint offers only keys that do what it says in that form: enter does
// not send from a text area (it adds a line), and a form of one field has
// no next field to tab to.
func TestFormHintOffersOnlyTheKeysThatWork(t *testing.T) {
	st := theme.New(true, false)
	for _, tc := range []struct {
		name   string
		fields []form.Field
		want   string
	}{
		{"one text area", []form.Field{{Key: "rules", Label: "Rules", Kind: form.FieldMultiline}},
			"ctrl+s save · esc closes"},
		{"one line", []form.Field{{Key: "name", Label: "Name"}},
			"enter or ctrl+s save · esc closes"},
		{"a text area last", []form.Field{{Key: "name", Label: "Name"}, {Key: "meta", Label: "Metadata", Kind: form.FieldMultiline}},
			"ctrl+s save · enter on Name save · tab next field · esc closes"},
		{"two text areas", []form.Field{{Key: "a", Label: "A", Kind: form.FieldMultiline}, {Key: "b", Label: "B", Kind: form.FieldMultiline}},
			"ctrl+s save · tab next field · esc closes"},
		{"lines only", []form.Field{{Key: "a", Label: "A"}, {Key: "b", Label: "B"}},
			"ctrl+s save · enter on the last field save · tab next field · esc closes"},
	} {
		f := form.New(&st, form.Spec{Title: "T", Submit: "save", Fields: tc.fields})
		f.SetWidth(120)
		lines := strings.Split(uitest.Plain(f.View()), "\n")
		if hint := strings.TrimSpace(lines[len(lines)-1]); hint != tc.want {
			t.Errorf("%s: hint %q, want %q", tc.name, hint, tc.want)
		}
	}
}
