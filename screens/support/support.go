// Package support is the support console: a tenant's agent looks up any
// customer's consents and audit trail with the client key alone, without
// the customer's sign-in, exports the case for the ticket, revokes or
// links consents with the secret key (asked for when needed, never shown),
// and, with the customer's own approval (ctrl+o), opens the customer's
// screens read-only. Every change is appended to the action log.
package support

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/screens/support/actionlog"
	"cardterm/theme"
	"cardterm/ui"
)

// Options are what main knows about where the console runs.
type Options struct {
	// StateFile keeps the last look-ups (ids, region and ticket only);
	// "" keeps none.
	StateFile string
	// ExportDir is where exported cases are written; "" is the current
	// directory.
	ExportDir string
	// ActionLog is the JSON-lines file every change made from the console
	// is appended to; "" keeps none.
	ActionLog string
	// Agent names the agent in the action log and the case files; "" is
	// the OS user.
	Agent string
	// Environment names the gateway's environment in the action log
	// ("sandbox", "production"); "" is "production" on a production
	// gateway (Deps.Production), else "sandbox".
	Environment string
	// User or Onboarding is looked up as soon as the console opens.
	User, Onboarding string
	// DemoUsers are the sandbox's demo customers, offered while there is
	// no recent look-up so that a demo can start with one.
	DemoUsers []DemoUser
	// CustomerScreens builds the screens a customer-approved session
	// shows (main passes the app's screen list); nil leaves ctrl+o out.
	CustomerScreens func(screenkit.Deps) []ui.Screen
}

// DemoUser is a sandbox customer the console offers to look up.
type DemoUser struct {
	Username, ID, Summary string
	US                    bool
}

// view is what the console shows.
type view int

const (
	viewLookups view = iota // the recent look-ups
	viewCase                // one customer's case
)

// Screen is the support console.
type Screen struct {
	screenkit.Base
	opts Options
	keys keyMap
	log  *actionlog.Log

	view    view
	recent  recentLookups
	lookups ui.Table // the recent look-ups, or the demo users

	// us says the look-ups go to the US backend; regionClient is the
	// client for the region chosen in the console when it is not the
	// app's.
	us           bool
	regionClient *apiclient.Client

	kase    *caseData
	loadID  ui.RequestID
	loading bool
	sets    ui.Table // consents in force (user) or sets (onboarding)
	// ticket is the case's ticket label, logged with every action.
	ticket string
	// problem is the last failure of the case, said on the case itself.
	problem string

	audit   *auditView // open timeline, if any
	form    *ui.Form   // open form, if any
	formFor formPurpose
	action  *pendingAction
	change  ui.Change[actionDone]
	// secretClient carries the secret key the agent typed, for revoke,
	// link and the approved session's code exchange; reads keep using the
	// client-key client. secretRefused says the app's own key was refused:
	// the console asks for one instead.
	secretClient  *apiclient.Client
	secretRefused bool

	approval *approval // the customer-approved session, if any
	// ended is the client of the last session ended, whose revoke may
	// still be on its way when the app ends (Close).
	ended *apiclient.Client
}

// New builds the support console.
func New(deps screenkit.Deps, opts Options) *Screen {
	s := &Screen{Base: screenkit.NewBase(deps, ui.ScreenSupport, "Support console"), opts: opts, keys: newKeys(deps.ReadOnly),
		lookups: ui.NewTable(deps.Styles, lookupColumns), log: actionlog.Open(opts.ActionLog)}
	if deps.Client != nil {
		s.us = deps.Client.Config().US
	}
	s.change = ui.NewChange[actionDone](s.Requests)
	s.sets = ui.NewTable(deps.Styles, userSetColumns)
	s.syncLookups()
	return s
}

// CapturesKeys implements ui.Screen: forms and table filters take letters.
func (s *Screen) CapturesKeys() bool {
	switch {
	case s.form != nil:
		return true
	case s.approval != nil && s.approval.panelOpen():
		return true
	case s.audit != nil:
		return s.audit.CapturesKeys()
	case s.view == viewCase:
		return s.sets.Filtering()
	}
	return s.lookups.Filtering()
}

// Enter reads the recent look-ups and opens the one main asked for.
func (s *Screen) Enter() tea.Cmd {
	cmds := []tea.Cmd{s.loadRecent()}
	switch {
	case s.opts.User != "":
		cmds = append(cmds, s.lookUp(caseUser, s.opts.User, s.us, ""))
		s.opts.User = ""
	case s.opts.Onboarding != "":
		cmds = append(cmds, s.lookUp(caseOnboarding, s.opts.Onboarding, s.us, ""))
		s.opts.Onboarding = ""
	}
	return tea.Batch(cmds...)
}

// SetSize implements ui.Screen.
func (s *Screen) SetSize(width, height int) {
	s.Width, s.Height = width, height
	s.lookups.SetSize(width, max(height-3-reachHeight(width), 3))
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
		return s, tea.Batch(s.reload(), s.reportAction(res))
	} else if cmd != nil {
		return s, cmd
	}
	if cmd, ok := s.updateApproval(msg); ok {
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
	case ui.Result[copied]:
		return s, s.gotCopy(msg)
	case ui.RefreshMsg:
		if s.audit != nil {
			return s, s.audit.start()
		}
		return s, s.reload()
	case tea.KeyPressMsg:
		return s, s.handleKey(msg)
	case ui.BodyMouseMsg:
		return s, s.mouse(msg)
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
	if s.approval != nil && s.approval.panelOpen() {
		return s.approvalKey(msg)
	}
	if s.audit != nil {
		if !s.audit.CapturesKeys() {
			switch {
			case key.Matches(msg, s.keys.Export):
				return s.export(false)
			case key.Matches(msg, s.keys.ExportFull):
				return s.export(true)
			case key.Matches(msg, s.keys.Copy):
				return s.copyMarkdown()
			}
		}
		var cmd tea.Cmd
		s.audit, cmd = s.audit.update(msg)
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
		return s.openForm(lookupForm(s.Deps.Styles, caseUser, s.us))
	case key.Matches(msg, s.keys.Onboarding):
		s.formFor = formLookup
		return s.openForm(lookupForm(s.Deps.Styles, caseOnboarding, s.us))
	case key.Matches(msg, s.keys.Region):
		s.setRegion(!s.us)
		return notify("look-ups now go to the " + regionName(s.us) + " region")
	case key.Matches(msg, s.keys.Open):
		return s.openSelectedLookup()
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
		return s.closeCase()
	case key.Matches(msg, k.Audit):
		s.audit = newAuditView(s.Deps, s.Requests, s.readClient(), s.kase.id)
		s.audit.SetSize(s.Width, s.Height)
		return s.audit.start()
	case key.Matches(msg, k.Revoke):
		return s.startRevoke()
	case key.Matches(msg, k.Link):
		return s.startLink()
	case key.Matches(msg, k.Approve):
		return s.startApproval()
	case key.Matches(msg, k.Region):
		// The same id in the other region: one key after a 404.
		return s.lookUp(s.kase.kind, s.kase.id, !s.us, s.ticket)
	case key.Matches(msg, k.Ticket):
		s.formFor = formTicket
		return s.openForm(ticketForm(s.Deps.Styles, s.ticket))
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

// closeCase goes back to the look-ups; an approved session of the case
// is revoked first.
func (s *Screen) closeCase() tea.Cmd {
	end := s.endApproval("the case was closed", false)
	s.clearCase()
	s.view = viewLookups
	return end
}

// clearCase forgets everything of the case shown, so that the next
// look-up starts from empty state: no record, answer, form, pending
// action, problem or ticket of this one can reach the next. Requests in
// flight (an export) finish; their answers name their own case.
func (s *Screen) clearCase() {
	s.kase, s.audit, s.form, s.action = nil, nil, nil, nil
	s.problem, s.ticket, s.loading = "", "", false
	s.loadID = 0 // a late answer of this case is dropped
	s.change.Reset()
	s.sets.SetRows(nil)
}

// setProblem says a failure on the case (or clears it with "") and lays
// the case out again around the lines it takes.
func (s *Screen) setProblem(text string) {
	s.problem = text
	s.SetSize(s.Width, s.Height)
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

// Inspect offers the gateway's raw answer to the global i: the selected
// audit record on the timeline, else the consent look-up's answer.
func (s *Screen) Inspect() (string, []byte, bool) {
	if s.audit != nil {
		if r, ok := s.audit.selected(); ok {
			return screenkit.Inspected("Audit record "+r.AuditID, r.Raw)
		}
		return "", nil, false
	}
	if s.kase == nil || s.view != viewCase {
		return "", nil, false
	}
	return screenkit.Inspected("Consent answer for "+string(s.kase.kind)+" "+s.kase.id, s.kase.raw)
}

// notify is a shorthand for the console's information notices.
func notify(text string) tea.Cmd { return ui.Notify(theme.ToneInfo, text) }
