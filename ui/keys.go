package ui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/ui/keymap"
)

// GlobalKeyMap holds the keys the root model handles on every screen. It is
// the single source for routing, the footer and the ? help, so what the help
// says is what the keys do.
type GlobalKeyMap struct {
	Help key.Binding
	// HelpAnywhere works while a text field has the keys, where ? types.
	HelpAnywhere key.Binding
	// Interrupt quits from anywhere, a text field included.
	Interrupt key.Binding
	// Suspend stops the app and gives the shell back (fg returns), from
	// anywhere, a text field included.
	Suspend key.Binding
	// Notices opens the log of the session's notices.
	Notices key.Binding
	// Nav hides or shows the navigation pane.
	Nav key.Binding
	// Inspect shows the JSON the gateway sent for what is selected.
	Inspect key.Binding
	Quit    key.Binding
	Focus   key.Binding
	Back    key.Binding
	Refresh key.Binding
	Copy    key.Binding
	Open    key.Binding
	SignOut key.Binding
	// Profiles opens the profile switcher; it works in a text field too,
	// and is disabled when there is no other profile.
	Profiles key.Binding
	Jump     key.Binding
	// GoTo opens a screen by name (root_goto.go).
	GoTo key.Binding
	// Presenter hides or shows the keys pressed (presenter mode), from
	// anywhere, a text field included.
	Presenter key.Binding
	// Keep copies what a customer-approved session shows into the support
	// case (root_evidence.go); offered only in such a session.
	Keep key.Binding
	// Run runs one of the user's commands on the selected record
	// (record_command.go), in read-only mode too.
	Run key.Binding
}

// GlobalKeys builds the global key map (ARCHITECTURE.md, "The path of a key press").
func GlobalKeys() GlobalKeyMap {
	return GlobalKeyMap{
		Help:         keymap.Bind("global.help"),
		HelpAnywhere: keymap.Bind("global.help-anywhere"),
		Interrupt:    keymap.Bind("global.interrupt"),
		Suspend:      keymap.Bind("global.suspend"),
		Notices:      keymap.Bind("global.notices"),
		Nav:          keymap.Bind("global.nav"),
		Inspect:      keymap.Bind("global.inspect"),
		Quit:         keymap.Bind("global.quit"),
		Focus:        keymap.Bind("global.focus"),
		Back:         keymap.Bind("global.back"),
		Refresh:      keymap.Bind("global.refresh"),
		Copy:         keymap.Bind("global.copy"),
		Open:         keymap.Bind("global.open"),
		SignOut:      keymap.Bind("global.sign-out"),
		Profiles:     keymap.Bind("global.profiles"),
		Presenter:    keymap.Bind("global.presenter"),
		Keep:         keymap.Bind("global.keep"),
		Run:          keymap.Bind("global.run"),
		Jump:         keymap.Bind("global.jump"),
		GoTo:         keymap.Bind("global.goto"),
	}
}

// UpKey and DownKey move in every list and pane the shell draws (arrows or
// vi keys), so they read the same in each one's help.
func UpKey() key.Binding { return key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")) }

func DownKey() key.Binding {
	return key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down"))
}

// ScrollKeyMap is the keys that move through a list or a text: a line, a
// page, or to either end. The table and the inspector embed it, each with
// its own help words.
type ScrollKeyMap struct {
	Up, Down, PageUp, PageDown, Home, End key.Binding
}

// NewScrollKeys is the one set of scroll keys every pane starts from, so
// a line, a page and either end are the same keys everywhere; a pane may
// reword their help.
func NewScrollKeys() ScrollKeyMap {
	return ScrollKeyMap{
		Up:       UpKey(),
		Down:     DownKey(),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "space"), key.WithHelp("pgdn", "page down")),
		Home:     key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("g/home", "top")),
		End:      key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("G/end", "bottom")),
	}
}

// Move is where msg moves position among the positions 0 to last, page
// positions at a time for the page keys; moved is false when msg is none
// of these keys. The caller keeps the result in range.
func (k ScrollKeyMap) Move(msg tea.KeyPressMsg, position, page, last int) (to int, moved bool) {
	switch {
	case key.Matches(msg, k.Up):
		return position - 1, true
	case key.Matches(msg, k.Down):
		return position + 1, true
	case key.Matches(msg, k.PageUp):
		return position - page, true
	case key.Matches(msg, k.PageDown):
		return position + page, true
	case key.Matches(msg, k.Home):
		return 0, true
	case key.Matches(msg, k.End):
		return last, true
	}
	return position, false
}

// ShortHelp is the footer line: the keys a newcomer needs first.
func (k GlobalKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Help, k.Quit, k.Jump, k.Focus, k.Refresh}
}

// FullHelp is the global part of the ? overlay.
func (k GlobalKeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Help, k.Quit, k.Jump, k.GoTo, k.Focus, k.Back},
		{k.Refresh, k.Copy, k.Open, k.Inspect, k.Run, k.SignOut, k.Keep},
		{k.Notices, k.Nav, k.HelpAnywhere, k.Profiles, k.Presenter, k.Suspend},
	}
}

var _ help.KeyMap = GlobalKeyMap{}

// KeyMapFunc adapts two functions to help.KeyMap, for widgets and tests that
// build their bindings on the fly.
type KeyMapFunc struct {
	Short func() []key.Binding
	Full  func() [][]key.Binding
}

// ShortHelp implements help.KeyMap.
func (k KeyMapFunc) ShortHelp() []key.Binding {
	if k.Short == nil {
		return nil
	}
	return k.Short()
}

// FullHelp implements help.KeyMap.
func (k KeyMapFunc) FullHelp() [][]key.Binding {
	if k.Full == nil {
		if s := k.ShortHelp(); len(s) > 0 {
			return [][]key.Binding{s}
		}
		return nil
	}
	return k.Full()
}
