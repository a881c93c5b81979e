package ui

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// ScreenID names a screen. Its number is the key that jumps to it (10 is
// the key 0) and orders the navigation.
type ScreenID int

// The screens, in navigation order. SignIn is outside the navigation. A new
// screen takes the next number here (see ARCHITECTURE.md, "Add a screen").
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
	ScreenEvents
)

// ScreenSupport is the support console: like the sign-in screen it is
// outside the navigation, shown while no customer is signed in.
const ScreenSupport ScreenID = 100

// MaxScreens is how many screens the number keys reach: 1-9, then 0.
const MaxScreens = 10

// Key is the number key that jumps to the screen: "1".."9", and "0" for
// the tenth.
func (id ScreenID) Key() string {
	return string(rune('0' + int(id)%10))
}

// screenForKey is the screen a number key jumps to.
func screenForKey(k string) ScreenID {
	if k == "0" {
		return ScreenID(10)
	}
	return ScreenID(k[0] - '0')
}

// Identity is what the root knows a screen by: its ID (the number key) and
// its title in the navigation and the help. A screen embeds one, set in
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

// SubView is a panel shown inside a screen (a form, a detail, a chooser).
// While open it gets the screen's keys and its key map is the screen's.
// Update returns nil when the sub-view closes itself.
type SubView interface {
	Update(msg tea.Msg) (SubView, tea.Cmd)
	SetSize(width, height int)
	View() string
	KeyMap() help.KeyMap
	CapturesKeys() bool
}
