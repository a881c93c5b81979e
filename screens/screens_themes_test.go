package screens_test

import (
	"strings"
	"testing"

	"cardterm/screens"
	"cardterm/screens/screentest"
	"cardterm/theme"
)

// Every screen in every built-in theme and in a theme file, in colour: a
// golden file of each whole frame (reviewed when it changes). Each theme
// draws the Account screen differently from the dark one, so a theme
// that sets nothing is caught.
func TestEveryScreenInEveryTheme(t *testing.T) {
	custom, err := theme.Load("testdata/themes/custom.yaml")
	if err != nil {
		t.Fatal(err)
	}
	themes := []struct {
		name  string
		theme theme.Theme
	}{{"dark", theme.Dark}, {"light", theme.Light}, {"high-contrast", theme.HighContrast},
		{"colour-blind", theme.ColourBlind}, {"custom", custom}}
	drawn := map[string]string{}
	for _, each := range themes {
		app := allScreens(t, screentest.WithSize(100, 30), screentest.WithDemo(), screentest.WithTheme(each.theme))
		app.ColourGolden(each.name + "-signin")
		app.Keys("enter")
		for _, s := range screens.All(app.Deps) {
			app.Open(s.ID())
			app.ColourGolden(each.name + "-" + strings.ToLower(strings.ReplaceAll(s.Title(), " ", "-")))
			if _, ok := drawn[each.name]; !ok {
				drawn[each.name] = app.Root.View().Content
			}
		}
	}
	for _, each := range themes[1:] {
		if drawn[each.name] == drawn["dark"] {
			t.Errorf("the %s theme draws Account as the dark one does", each.name)
		}
	}
}
