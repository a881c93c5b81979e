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
// open over it as sub-views.

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

	// open is the sub-view shown instead of the main view: a look-up,
	// link or create form, a set's detail, the audit trail. under is the
	// set's detail a form was opened from, shown again when the form
	// closes (esc, or a link made).
	open, under ui.SubView

	// change is every consent change (revoke, link, create): one
	// confirmation and one double-press guard for all three. asking is the
	// form the pending change came from, shown the refusal if any.
	change ui.Change[changed]
	asking changeForm
}

// New builds the consent screen; it looks up the signed-in user first.
func New(deps screenkit.Deps) *Screen {
	s := &Screen{Base: screenkit.NewBase(deps, screenkit.ConsentScreen, "Consent")}
	s.table = table.New(deps.Styles, columns(0))
	s.keys = newKeyMap(deps.ReadOnly, s.table.KeyMap())
	s.change = ui.NewChange[changed](s.Requests)
	return s
}

// KeyMap implements ui.Screen: the open sub-view's keys, else the main
// view's.
func (s *Screen) KeyMap() help.KeyMap {
	if s.open != nil {
		return s.open.KeyMap()
	}
	return s.keys
}

// CapturesKeys implements ui.Screen: forms and table filters take every
// key.
func (s *Screen) CapturesKeys() bool {
	if s.open != nil {
		return s.open.CapturesKeys()
	}
	return s.table.Filtering()
}

// Enter loads the current subject (the signed-in user the first time), or
// the audit page while the audit trail is open; an open form stays as it
// is.
func (s *Screen) Enter() tea.Cmd {
	switch v := s.open.(type) {
	case *auditView:
		return v.reload()
	case *lookupForm, *linkForm, *createForm:
		return nil
	}
	return s.load(s.subject)
}

// Update implements ui.Screen.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if res, done, cmd := s.change.Update(msg); done {
		return s, s.changeDone(res)
	} else if cmd != nil {
		s.sending()
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
	default:
		if s.open != nil {
			return s, s.toOpen(msg)
		}
	}
	return s, nil
}

// toOpen hands a message to the open sub-view and closes it when it says
// so.
func (s *Screen) toOpen(msg tea.Msg) tea.Cmd {
	closed, cmd := screenkit.ToOpen(&s.open, msg)
	if closed {
		s.closeOpen()
	}
	return cmd
}

// show opens a sub-view in the screen's size, instead of what was open.
func (s *Screen) show(v ui.SubView) {
	v.SetSize(s.Width, s.Height)
	s.open, s.under = v, nil
}

// showForm opens a form; one opened from a set's detail keeps the detail
// under it.
func (s *Screen) showForm(v ui.SubView) {
	detail, fromDetail := s.open.(*detailView)
	s.show(v)
	if fromDetail {
		s.under = detail
	}
}

// closeOpen closes the open sub-view, back to the detail under it if any.
func (s *Screen) closeOpen() { s.open, s.under = s.under, nil }

// handleKey routes a key: to an open form or the audit trail; else the
// keys that work on the main view and in a set's detail; else the detail's
// scrolling, or the main view's own keys and the table.
func (s *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	_, detail := s.open.(*detailView)
	switch {
	case s.open != nil && !detail:
		return s.toOpen(msg)
	case s.open == nil && s.table.Filtering():
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
		return s.openLink()
	case key.Matches(msg, s.keys.New):
		return s.openCreate()
	case detail:
		return s.toOpen(msg)
	case key.Matches(msg, s.keys.Open):
		if set, ok := s.selectedSet(); ok {
			s.show(newDetailView(s.Deps.Styles, newDetailKeys(s.keys), set, s.Deps.Clock))
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

// selectedSet is the set the keys act on: the open one, else the selected
// row's.
func (s *Screen) selectedSet() (apiclient.ConsentSet, bool) {
	if d, ok := s.open.(*detailView); ok {
		return d.set, d.found
	}
	if r, ok := s.selected(); ok {
		return s.sets[r.set], true
	}
	return apiclient.ConsentSet{}, false
}

// CopyValue implements ui.Copier: the selected audit record, the open set
// or the selected consent's id.
func (s *Screen) CopyValue() (label, value string, ok bool) {
	switch v := s.open.(type) {
	case *auditView:
		if r, ok := v.selected(); ok {
			return "audit id", r.AuditID, true
		}
		return "", "", false
	case *detailView:
		return "consent set id", v.set.ConsentSetID, v.found
	case nil:
		if r, ok := s.selected(); ok {
			return "consent id of " + sanitize.Text(r.consent.ConsentType), r.consent.ConsentID, true
		}
	}
	return "", "", false
}
