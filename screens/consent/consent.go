// Package consent is the Consent screen: a user's consent status and sets,
// each set's consents, the audit trail, and linking, revoking and creating
// consent sets.
package consent

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// The consent screen is the support agents' tool: look up a user's (or an
// onboarding's) consent sets, read the audit trail, revoke a consent, link
// a set to a user, create a set. The main view is the table of consents in
// force; the look-up and change forms, a set's detail and the audit trail
// open over it as layers (layers.go).

// row is a table row: one consent in force of one set.
type row struct {
	set     int // index in Screen.sets
	consent apiclient.Consent
}

// Screen is screen 8.
type Screen struct {
	screenkit.Base
	keys keyMap

	selfID   string // the signed-in user's id, learnt on the first look-up
	subject  subject
	status   string // the user's aggregate status as the gateway said it
	notFound bool   // the user's look-up answered 404: no consent set
	summary  string // the line under the header (summarize)
	sets     []apiclient.ConsentSet
	rows     []row
	table    table.Table
	level    int // table layout: 0 narrow, 1 medium, 2 wide (columns)

	loadID  ui.RequestID
	loading bool
	loadErr error

	// view counts the main view's showings: a look-up or a new set moves
	// it on, which closes the layers opened over the last one (layers.go).
	view int
	// forms numbers the forms opened, so a change's answers reach the form
	// it came from.
	forms int

	// change is every consent change (revoke, link, create): one
	// confirmation and one double-press guard for all three. asking is the
	// number of the form the pending change came from (0: the main view).
	change ui.Change[changed]
	asking int
}

// New builds the consent screen; it looks up the signed-in user first.
func New(deps screenkit.Deps) *Screen {
	s := &Screen{Base: screenkit.NewBase(deps, screenkit.ConsentScreen, "Consent")}
	s.table = table.New(deps.Styles, columns(0))
	s.keys = newKeyMap(deps.ReadOnly, s.table.KeyMap())
	s.change = ui.NewChange[changed](s.Requests)
	return s
}

// KeyMap implements ui.Screen: the main view's keys (a layer over the
// screen has its own).
func (s *Screen) KeyMap() help.KeyMap { return s.keys }

// CapturesKeys implements ui.Screen: the table's filter takes every key.
func (s *Screen) CapturesKeys() bool { return s.table.Filtering() }

// Enter loads the current subject (the signed-in user the first time).
func (s *Screen) Enter() tea.Cmd { return s.load(s.subject) }

// Update implements ui.Screen.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if res, done, cmd := s.change.Update(msg); done {
		return s, s.changeDone(res)
	} else if cmd != nil {
		return s, cmd
	}
	switch msg := msg.(type) {
	case ui.Result[loaded]:
		return s, s.loaded(msg)
	case ui.RefreshMsg:
		return s, s.Enter()
	case tea.KeyPressMsg:
		return s, s.handleKey(msg)
	case ui.BodyMouseMsg:
		return s, s.mouse(msg)
	}
	return s, nil
}

// openDetail opens the set's detail over the main view.
func (s *Screen) openDetail(set apiclient.ConsentSet) tea.Cmd {
	return ui.OpenLayer(newDetailView(s, set))
}

// handleKey routes a key of the main view: its own keys, else the table.
func (s *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if s.table.Filtering() {
		cmd, _ := s.table.FilterKey(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, s.keys.User):
		return s.openLookup(false)
	case key.Matches(msg, s.keys.Onboarding):
		return s.openLookup(true)
	case key.Matches(msg, s.keys.Audit):
		return s.openAudit()
	case key.Matches(msg, s.keys.Link):
		return s.openLinkSelected()
	case key.Matches(msg, s.keys.New):
		return s.openCreate()
	case key.Matches(msg, s.keys.Open):
		if set, ok := s.selectedSet(); ok {
			return s.openDetail(set)
		}
		return nil
	case key.Matches(msg, s.keys.Revoke):
		return s.askRevoke()
	}
	var cmd tea.Cmd
	s.table, cmd = s.table.Update(msg)
	return cmd
}

// selected is the row under the cursor.
func (s *Screen) selected() (row, bool) { return screenkit.Selected(&s.table, s.rows) }

// selectedSet is the selected row's set.
func (s *Screen) selectedSet() (apiclient.ConsentSet, bool) {
	if r, ok := s.selected(); ok {
		return s.sets[r.set], true
	}
	return apiclient.ConsentSet{}, false
}

// CopyValue implements ui.Copier: the selected consent's id (the detail
// and the audit trail offer their own).
func (s *Screen) CopyValue() (label, value string, ok bool) {
	if r, ok := s.selected(); ok {
		return "consent id of " + sanitize.Text(r.consent.ConsentType), r.consent.ConsentID, true
	}
	return "", "", false
}
