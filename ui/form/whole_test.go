package form_test

import (
	"strings"
	"testing"

	"cardterm/theme"
	"cardterm/ui/form"
	"cardterm/ui/uitest"
)

// Read out (the accessible mode), a value wider than its field is drawn
// whole, wrapped under itself, not the window of it a text input shows;
// drawn for the eye, the window stays.
func TestFormReadOutShowsALongValueWhole(t *testing.T) {
	const url = "https://hooks.partner-with-a-long-domain.example/v2/ledger/synchronise/cards?tenant=acme-treasury-eu"
	for _, whole := range []bool{true, false} {
		st := theme.New(true, true)
		st.WholeText = whole
		f := form.New(&st, form.Spec{Title: "Add webhook", Fields: []form.Field{{Key: "url", Label: "URL"}, {Key: "name", Label: "Name"}}})
		f.SetWidth(60)
		f.SetValue("url", url)
		view := uitest.Plain(f.View())
		joined := strings.Join(strings.Fields(view), "")
		if got := strings.Contains(joined, url); got != whole {
			t.Errorf("read out %v: the whole URL shown %v, want %v:\n%s", whole, got, whole, view)
		}
		for _, line := range strings.Split(view, "\n") {
			if n := len([]rune(strings.TrimRight(line, " "))); whole && n > 60 {
				t.Errorf("read out %v: a line is %d wide, over the form's 60: %q", whole, n, line)
			}
		}
	}
}
