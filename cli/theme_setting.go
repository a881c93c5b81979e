package cli

import (
	"cardterm/theme"
)

// checkThemeSetting accepts a built-in theme's name or a theme file that
// reads well; a malformed file is refused with its line.
func checkThemeSetting(value string) error {
	if _, ok := theme.Named(value); ok {
		return nil
	}
	if _, err := theme.Load(value); err != nil {
		return usageError{"theme: " + err.Error() + " (built-in themes: auto, dark, light, high-contrast, colour-blind)"}
	}
	return nil
}

// themeOf is the theme a checked setting names; auto when unset.
func themeOf(value string) theme.Theme {
	if t, ok := theme.Named(value); ok {
		return t
	}
	if t, err := theme.Load(value); err == nil {
		return t
	}
	return theme.Auto
}
