package screenkit

import (
	"strings"
	"testing"

	"cardterm/theme"
	"cardterm/ui/form"
)

// Replace gives the new form the layer's size and keeps the focus on the
// field of the same key; what build makes of the typed values is the new
// form's.
func TestFormLayerReplaceKeepsSizeAndFocus(t *testing.T) {
	st := new(theme.New(true, true))
	fields := func(keys ...string) []form.Field {
		var out []form.Field
		for _, k := range keys {
			out = append(out, form.Field{Key: k, Label: k})
		}
		return out
	}
	l := &FormLayer{Form: form.New(st, form.Spec{Title: "old", Fields: fields("a", "b")}), Scroll: true}
	l.SetSize(80, 7)
	l.Form.FocusField("b")
	l.Form.SetValue("b", "typed")
	var got map[string]string
	l.Replace(func(typed map[string]string) *form.Form {
		got = typed
		f := form.New(st, form.Spec{Title: "new", Fields: fields("a", "b", "c", "d", "e")})
		f.SetValue("b", typed["b"])
		return f
	})
	if got["b"] != "typed" {
		t.Fatalf("build got %q, not what was typed", got)
	}
	if l.Form.Focused() != "b" || l.Form.Value("b") != "typed" {
		t.Fatalf("focus %q, b %q after Replace", l.Form.Focused(), l.Form.Value("b"))
	}
	if lines := strings.Count(l.Form.View(), "\n") + 1; lines > 7 {
		t.Fatalf("the new form draws %d lines in a 7-line body:\n%s", lines, l.Form.View())
	}
}
