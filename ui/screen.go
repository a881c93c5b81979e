package ui

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// ScreenID names a screen: its requests, its notices and navigation to it
// are addressed by it. The app's own screens name themselves (see
// screens/screenkit); ui knows only the two that stand outside the
// navigation. A screen's number key is not part of its identity: it comes
// from its place in the list the root is given (see NumberKey).
type ScreenID string

// ScreenSignIn is the sign-in screen, shown full-body while no one is
// signed in.
const ScreenSignIn ScreenID = "sign-in"

// ScreenSupport is the support console: like the sign-in screen it is
// outside the navigation, shown while no customer is signed in.
const ScreenSupport ScreenID = "support"

// NumberKey is the key that jumps to the screen at position i (from 0) of
// the navigation: "1".."9", "0" for the tenth, and none ("") past it:
// those screens are reached through the navigation pane.
func NumberKey(i int) string {
	switch {
	case i < 0 || i >= 10:
		return ""
	case i == 9:
		return "0"
	}
	return string(rune('1' + i))
}

// Identity is what the root knows a screen by: its ID and its title in the
// navigation and the help. A screen embeds one, set in
// New, for the ID and Title methods of Screen.
type Identity struct {
	id    ScreenID
	title string
}

// Identify names a screen.
func Identify(id ScreenID, title string) Identity { return Identity{id: id, title: title} }

// ID implements Screen.
func (i Identity) ID() ScreenID { return i.id }

// Title implements Screen.
func (i Identity) Title() string { return i.title }

// AtStart is a screen with work to do when the app starts, shown or not:
// the support console revokes the customer-approved sessions a crash left
// open. The root runs the command from Init; its notices show on any
// screen.
type AtStart interface {
	AtStart() tea.Cmd
}

// Screen is one page of the app body. The root model owns routing and focus
// and hands each screen only the messages meant for it.
type Screen interface {
	// ID says which screen this is.
	ID() ScreenID
	// Title is the name in the navigation and the help.
	Title() string
	// Enter is called when the screen becomes visible (after sign-in or on
	// navigation); it returns the commands that load its data.
	Enter() tea.Cmd
	// Update handles a message while the screen is active, and results of its
	// own requests at any time.
	Update(msg tea.Msg) (Screen, tea.Cmd)
	// SetSize gives the body's size; the root calls it before the first
	// View and whenever the size changes. Layout work (columns, wrapping)
	// happens here, never in View.
	SetSize(width, height int)
	// View renders the body in the size last given to SetSize.
	View() string
	// KeyMap lists the bindings that work now, for the footer and the
	// help; read-only mode shows as disabled bindings.
	KeyMap() help.KeyMap
	// CapturesKeys reports whether a text input has focus or a list is
	// filtering, so global single-letter keys must go to the screen.
	CapturesKeys() bool
}
