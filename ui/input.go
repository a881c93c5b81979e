package ui

import (
	"image/color"

	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"cardterm/theme"
)

// InputStyles are text-input styles from the theme. textinput.New() uses
// bubbles' dark defaults (light grey text and cursor, unreadable on a light
// terminal, and coloured under NO_COLOR); screens set these on every input
// they create and again on tea.BackgroundColorMsg:
//
//	in.SetStyles(ui.InputStyles(deps.Styles))
//
// The cursor is steady: no blink timers while a form is open.
func InputStyles(st *theme.Styles) textinput.Styles {
	s := textinput.Styles{
		Focused: textinput.StyleState{
			Placeholder: st.Muted, Suggestion: st.Muted, Prompt: st.Accent, Text: st.Value,
		},
		Blurred: textinput.StyleState{
			Placeholder: st.Muted, Suggestion: st.Muted, Prompt: st.Muted, Text: st.Value,
		},
	}
	var cursor color.Color = lipgloss.NoColor{}
	if !st.NoColor {
		cursor = st.Accent.GetForeground()
	}
	s.Cursor = textinput.CursorStyle{Color: cursor, Shape: textinput.DefaultStyles(st.IsDark).Cursor.Shape, Blink: false}
	return s
}

// AreaStyles are text-area styles from the theme, for the same reasons as
// InputStyles: bubbles' defaults ignore the terminal's background and
// NO_COLOR.
func AreaStyles(st *theme.Styles) textarea.Styles {
	state := textarea.StyleState{
		Text: st.Value, Placeholder: st.Muted, Prompt: st.Accent,
		CursorLine: st.Value, EndOfBuffer: st.Muted, LineNumber: st.Muted, CursorLineNumber: st.Accent,
	}
	blurred := state
	blurred.Prompt = st.Muted
	var cursor color.Color = lipgloss.NoColor{}
	if !st.NoColor {
		cursor = st.Accent.GetForeground()
	}
	s := textarea.Styles{Focused: state, Blurred: blurred}
	s.Cursor = textarea.CursorStyle{Color: cursor, Shape: textarea.DefaultStyles(st.IsDark).Cursor.Shape, Blink: false}
	return s
}
