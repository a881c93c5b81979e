package ui

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// ScreenID names a screen; the navigation order is fixed by DESIGN.md and
// the number keys jump to it.
type ScreenID int

// The screens, in navigation order. SignIn is outside the navigation.
const (
	ScreenSignIn ScreenID = iota
	ScreenAccount
	ScreenCard
	ScreenTransactions
	ScreenWallets
	ScreenWhitelist
	ScreenDelegation
	ScreenOrders
	ScreenConsent
	ScreenWebhooks
)

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
	// View renders the body in exactly width x height cells.
	View(width, height int) string
	// KeyMap lists the screen's own bindings for the footer and the help.
	KeyMap() help.KeyMap
	// CapturesKeys reports whether a text input has focus or a list is
	// filtering, so global single-letter keys must go to the screen.
	CapturesKeys() bool
}
