package screenkit

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/domain/savedview"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// SaveViewLayer is the one way a screen saves its filter as a view (V):
// a form that says what the view keeps and asks its name; a bad name is
// refused next to the field, a good one is handed to the root to keep.
// kept lists the filter in words, one line each ("currency: USDC").
func SaveViewLayer(deps Deps, screen ui.ScreenID, kept []string, filter map[string]string) *FormLayer {
	lines := []string{"The view keeps:"}
	for _, line := range kept {
		lines = append(lines, "  "+sanitize.Text(line))
	}
	lines = append(lines, "Open it again from : (its name), or cardterm get … --view NAME.")
	f := form.New(deps.Styles, form.Spec{Title: "Save as a view", Submit: "save", Lines: lines,
		Fields: []form.Field{{Key: "name", Label: "View name", Placeholder: "to open this again from :", CharLimit: 64}}})
	return &FormLayer{Form: f, Width: func(width int) int { return min(width-2, 70) },
		Submit: func(f *form.Form) (tea.Cmd, bool) {
			name := f.Value("name")
			if err := savedview.CheckName(name); err != nil {
				return f.SetErrors("", []form.FieldError{{Field: "name", Message: err.Error()}}), false
			}
			return ui.SaveView(savedview.View{Screen: string(screen), Name: name, Filter: filter}), true
		}}
}
