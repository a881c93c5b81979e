package screentest

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The mouse in screen tests: clicks and wheel steps at a place of the
// whole frame, found by the text drawn there, go through the root as the
// terminal's would.

// Click presses the left button at column x, line y of the frame.
func (a *App) Click(x, y int) {
	a.T.Helper()
	a.Drive(tea.MouseClickMsg{X: x, Y: y, Button: tea.MouseLeft})
}

// Wheel turns the wheel steps notches (negative: up) at column x, line y.
func (a *App) Wheel(x, y, steps int) {
	a.T.Helper()
	button := tea.MouseWheelDown
	if steps < 0 {
		button, steps = tea.MouseWheelUp, -steps
	}
	for range steps {
		a.Drive(tea.MouseWheelMsg{X: x, Y: y, Button: button})
	}
}

// Find is the column and line where text is first drawn in the frame; the
// test fails when it is not drawn.
func (a *App) Find(text string) (x, y int) {
	a.T.Helper()
	screen := a.Screen()
	for i, line := range strings.Split(screen, "\n") {
		if at := strings.Index(line, text); at >= 0 {
			return ansi.StringWidth(line[:at]), i
		}
	}
	a.T.Fatalf("the frame lacks %q:\n%s", text, screen)
	return 0, 0
}

// ClickOn clicks the first place the frame draws text.
func (a *App) ClickOn(text string) {
	a.T.Helper()
	a.Click(a.Find(text))
}

// SelectedLine is the line of the frame that draws a table's cursor (›),
// -1 when none does.
func (a *App) SelectedLine() int {
	for i, line := range strings.Split(a.Screen(), "\n") {
		if strings.Contains(line, "› ") {
			return i
		}
	}
	return -1
}
