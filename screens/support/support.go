// Package support is the support console: a tenant's agent looks up any
// customer's consents and audit trail with the client key alone, without
// the customer's sign-in, exports the case for the ticket, and revokes or
// links consents with the secret key (asked for when needed, never shown).
package support

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// Options are what main knows about where the console runs.
type Options struct {
	// StateFile keeps the last look-ups (ids only); "" keeps none.
	StateFile string
	// ExportDir is where exported cases are written; "" is the current
	// directory.
	ExportDir string
	// User or Onboarding is looked up as soon as the console opens.
	User, Onboarding string
}

// view is what the console shows.
type view int

const (
	viewLookups view = iota // the recent look-ups
	viewCase                // one customer's case
)

// keyMap is the console's bindings; mutating ones are disabled in
// read-only mode, so the help never offers them.
type keyMap struct {
	User, Onboarding, Open, Back                  key.Binding
	Audit, Revoke, Link, Export, ExportFull, Copy key.Binding
}

func newKeys(readOnly bool) keyMap {
	k := keyMap{
		User:       key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "look up a user id")),
		Onboarding: key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "look up an onboarding id")),
		Open:       key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open look-up")),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Audit:      key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "audit timeline")),
		Revoke:     key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "revoke consent")),
		Link:       key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "link set to a user")),
		Export:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "export case")),
		ExportFull: key.NewBinding(key.WithKeys("E"), key.WithHelp("E", "export with IPs and user agents")),
		Copy:       key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy case as Markdown")),
	}
	screenkit.DisableInReadOnly(readOnly, &k.Revoke, &k.Link)
	return k
}

// Screen is the support console.
type Screen struct {
	screenkit.Base
	opts Options
	keys keyMap

	view    view
	recent  recentLookups
	lookups ui.Table // the recent look-ups

	kase    *caseData
	loadID  ui.RequestID
	loading bool
	sets    ui.Table // consents in force (user) or sets (onboarding)

	audit *auditView // open timeline, if any
	// auditRecords are the records the last timeline showed (filters and
	// search applied), for the export.
	auditRecords []apiclient.AuditRecord
	form         *ui.Form // open form, if any
	formFor      formPurpose
	action       *pendingAction
	change       ui.Change[actionDone]
	// secretClient carries the secret key the agent typed, for revoke and
	// link only; reads keep using the client-key client.
	secretClient *apiclient.Client
}

// New builds the support console.
func New(deps screenkit.Deps, opts Options) *Screen {
	s := &Screen{Base: screenkit.NewBase(deps, ui.ScreenSupport, "Support console"), opts: opts, keys: newKeys(deps.ReadOnly),
		lookups: ui.NewTable(deps.Styles, lookupColumns)}
	s.change = ui.NewChange[actionDone](s.Requests)
	s.sets = ui.NewTable(deps.Styles, userSetColumns)
	return s
}

// CapturesKeys implements ui.Screen: forms and table filters take letters.
func (s *Screen) CapturesKeys() bool {
	switch {
	case s.form != nil:
		return true
	case s.audit != nil:
		return s.audit.CapturesKeys()
	case s.view == viewCase:
		return s.sets.Filtering()
	}
	return s.lookups.Filtering()
}

// KeyMap implements ui.Screen: the open form's or timeline's keys, or the
// view's own.
func (s *Screen) KeyMap() help.KeyMap {
	switch {
	case s.form != nil:
		return s.form.KeyMap()
	case s.audit != nil:
		return s.audit.KeyMap()
	}
	k := s.activeKeys()
	if s.view == viewLookups {
		return ui.KeyMapFunc{
			Short: func() []key.Binding { return []key.Binding{k.User, k.Onboarding, k.Open, k.Back} },
			Full: func() [][]key.Binding {
				return append([][]key.Binding{{k.User, k.Onboarding, k.Open, k.Back}}, s.lookups.KeyMap().FullHelp()...)
			},
		}
	}
	return ui.KeyMapFunc{
		Short: func() []key.Binding { return []key.Binding{k.Audit, k.Revoke, k.Link, k.Export, k.Copy, k.Back} },
		Full: func() [][]key.Binding {
			return append([][]key.Binding{{k.Audit, k.Revoke, k.Link, k.Back}, {k.Export, k.ExportFull, k.Copy}}, s.sets.KeyMap().FullHelp()...)
		},
	}
}

// activeKeys is the key map with what works on the case shown enabled:
// the timeline and revoke for a user, link for an onboarding id.
func (s *Screen) activeKeys() keyMap {
	k := s.keys
	user := s.kase != nil && s.kase.kind == caseUser
	k.Audit.SetEnabled(user && !s.kase.notFound)
	k.Revoke.SetEnabled(k.Revoke.Enabled() && user && !s.kase.notFound)
	k.Link.SetEnabled(k.Link.Enabled() && s.kase != nil && s.kase.kind == caseOnboarding && !s.kase.notFound)
	hasCase := s.kase != nil && s.kase.err == nil
	k.Export.SetEnabled(hasCase)
	k.ExportFull.SetEnabled(hasCase)
	k.Copy.SetEnabled(hasCase)
	return k
}

// Enter reads the recent look-ups and opens the one main asked for.
func (s *Screen) Enter() tea.Cmd {
	cmds := []tea.Cmd{s.loadRecent()}
	switch {
	case s.opts.User != "":
		cmds = append(cmds, s.lookUp(caseUser, s.opts.User))
		s.opts.User = ""
	case s.opts.Onboarding != "":
		cmds = append(cmds, s.lookUp(caseOnboarding, s.opts.Onboarding))
		s.opts.Onboarding = ""
	}
	return tea.Batch(cmds...)
}

// SetSize implements ui.Screen.
func (s *Screen) SetSize(width, height int) {
	s.Width, s.Height = width, height
	s.lookups.SetSize(width, max(height-6, 3))
	s.sets.SetSize(width, max(height-s.caseHeaderHeight()-3, 3))
	if s.form != nil {
		s.form.SetWidth(min(width, 72))
	}
	if s.audit != nil {
		s.audit.SetSize(width, height)
	}
}

// Update implements ui.Screen.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if res, done, cmd := s.change.Update(msg); done {
		s.action = nil
		return s, tea.Batch(s.reload(), screenkit.Report(res))
	} else if cmd != nil {
		return s, cmd
	}
	switch msg := msg.(type) {
	case ui.Result[recentLookups]:
		s.gotRecent(msg)
		return s, nil
	case ui.Result[*caseData]:
		return s, s.gotCase(msg)
	case ui.Result[exported]:
		return s, s.gotExport(msg)
	case ui.RefreshMsg:
		return s, s.reload()
	case ui.SignedInMsg:
		// A customer signed in on this terminal: the agent's case and key
		// are not theirs to see.
		screenkit.ResetKeepingSize(s, s.Width, s.Height, func() {
			*s = *New(s.Deps, Options{StateFile: s.opts.StateFile, ExportDir: s.opts.ExportDir})
		})
		return s, nil
	case tea.KeyPressMsg:
		return s, s.handleKey(msg)
	}
	if s.audit != nil {
		var cmd tea.Cmd
		s.audit, cmd = s.audit.update(msg)
		return s, cmd
	}
	return s, screenkit.ToForm(s.form, msg)
}

func (s *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if s.form != nil {
		return s.formKey(msg)
	}
	if s.audit != nil {
		switch {
		case key.Matches(msg, s.keys.Export) && !s.audit.CapturesKeys():
			return s.export(false)
		case key.Matches(msg, s.keys.ExportFull) && !s.audit.CapturesKeys():
			return s.export(true)
		case key.Matches(msg, s.keys.Copy) && !s.audit.CapturesKeys():
			return s.copyMarkdown()
		}
		var cmd tea.Cmd
		open := s.audit
		s.audit, cmd = s.audit.update(msg)
		if s.audit == nil {
			s.auditRecords = open.visible()
		}
		return cmd
	}
	if s.view == viewLookups {
		return s.lookupsKey(msg)
	}
	return s.caseKey(msg)
}

func (s *Screen) lookupsKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := s.lookups.FilterKey(msg); ok {
		return cmd
	}
	switch {
	case key.Matches(msg, s.keys.User):
		s.formFor = formLookup
		return s.openForm(lookupForm(s.Deps.Styles, caseUser))
	case key.Matches(msg, s.keys.Onboarding):
		s.formFor = formLookup
		return s.openForm(lookupForm(s.Deps.Styles, caseOnboarding))
	case key.Matches(msg, s.keys.Open):
		if recent, ok := screenkit.Selected(&s.lookups, s.recent); ok {
			return s.lookUp(recent.Kind, recent.ID)
		}
		return nil
	case key.Matches(msg, s.keys.Back):
		return func() tea.Msg { return ui.CloseSupportMsg{} }
	}
	var cmd tea.Cmd
	s.lookups, cmd = s.lookups.Update(msg)
	return cmd
}

func (s *Screen) caseKey(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := s.sets.FilterKey(msg); ok {
		return cmd
	}
	k := s.activeKeys() // disabled bindings match nothing
	switch {
	case key.Matches(msg, k.Back):
		s.view, s.kase = viewLookups, nil
		return nil
	case key.Matches(msg, k.Audit):
		s.audit = newAuditView(s.Deps, s.Requests, s.kase.id)
		s.audit.SetSize(s.Width, s.Height)
		return s.audit.start()
	case key.Matches(msg, k.Revoke):
		return s.startRevoke()
	case key.Matches(msg, k.Link):
		return s.startLink()
	case key.Matches(msg, k.Export):
		return s.export(false)
	case key.Matches(msg, k.ExportFull):
		return s.export(true)
	case key.Matches(msg, k.Copy):
		return s.copyMarkdown()
	}
	var cmd tea.Cmd
	s.sets, cmd = s.sets.Update(msg)
	return cmd
}

// openForm shows a form, sized and focused.
func (s *Screen) openForm(f *ui.Form) tea.Cmd {
	s.form = f
	f.SetWidth(min(s.Width, 72))
	return f.Focus()
}

// CopyValue offers the case's id to the global copy key.
func (s *Screen) CopyValue() (label, value string, ok bool) {
	if s.kase == nil {
		return "", "", false
	}
	if s.kase.kind == caseUser {
		return "user id", s.kase.id, true
	}
	return "onboarding id", s.kase.id, true
}

// notify is a shorthand for the console's information notices.
func notify(text string) tea.Cmd { return ui.Notify(theme.ToneInfo, text) }
