// Package support is the support console: a tenant's agent looks up any
// customer's consents and audit trail with the client key alone, without
// the customer's sign-in, exports the case for the ticket, revokes or
// links consents with the secret key (asked for when needed, never shown),
// and, with the customer's own approval (ctrl+o), opens the customer's
// screens read-only. Every change is appended to the action log.
package support

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/actionlog"
	"cardterm/domain/casefile"
	"cardterm/screens/screenkit"
	"cardterm/screens/support/grants"
	"cardterm/screens/support/queue"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/table"
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
	// RequireTicket asks for the case's ticket before any change or
	// customer-approved session (on by default in production).
	RequireTicket bool
	// GrantsDir is the state folder's record of the customer-approved
	// sessions open now, revoked at the next start when a crash left one
	// (grants); "" keeps none (a gateway that dies with the app).
	GrantsDir string
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
	// SandboxSecretKey is the embedded sandbox's secret key, which the app
	// knows: a customer-approved session's code exchange uses it rather
	// than asking. Empty for any other gateway, a --base-url one included.
	SandboxSecretKey string
	// CustomerScreens builds the screens a customer-approved session
	// shows (main passes the app's screen list); nil leaves ctrl+o out.
	CustomerScreens func(screenkit.Deps) []ui.Screen
	// CasesDir is where a ticket's case file is kept (case-TICKET.json).
	CasesDir string
	// CaseFile is a case file to open at start (--case), going on with
	// its last look-up.
	CaseFile string
	// RunbooksDir holds the tenant's own runbooks (*.yaml), besides the
	// built-in ones; "" reads none.
	RunbooksDir string
	// ResponseTimes are how long a case of each priority may wait, for
	// the queue's due column (nil: casefile.DefaultResponseTimes).
	ResponseTimes map[string]time.Duration
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
	// grants records the approved sessions open now (approval.go).
	grants *grants.Store

	view    view
	recent  recentLookups
	lookups table.Table // the recent look-ups, or the demo users

	// us says the look-ups go to the US backend (readClientFor).
	us bool

	kase    *caseData
	loadID  ui.RequestID
	loading bool
	// unlogged is the look-up whose answer is still to be logged: its
	// first answer is, not a reload's.
	unlogged *actionlog.Entry
	sets     table.Table // consents in force (user) or sets (onboarding)
	// ticket is the case's ticket label, logged with every action.
	ticket string
	// problem is the last failure of the case, said on the case itself.
	problem string
	// searched is the last address search's answer, said on the console.
	searched string

	// caseSeq counts the cases shown: the layers of one (its forms,
	// panels and views, layers.go) close when it does.
	caseSeq int
	action  *pendingAction
	change  ui.Change[actionDone]
	// secretClient carries the secret key the agent typed, for revoke,
	// link and the approved session's code exchange; reads keep using the
	// client-key client. secretRefused says the app's own key was refused:
	// the console asks for one instead.
	secretClient  *apiclient.Client
	secretRefused bool

	// caseFile is the ticket's case kept on disk (casework.go), casePath
	// its file; nil while no ticket is set. resume says a case opened
	// with --case goes on with its last look-up. saveSeq orders writes.
	caseFile *casefile.Case
	casePath string
	gate     *writeGate
	// opened says Enter ran once: the desk and the orphans are for the
	// console's start, not every return to it.
	opened  bool
	resume  bool
	saveSeq int
	// consentRec records the answers of the client-key reads, so that
	// evidence names them; readClients are those clients, EU and US.
	consentRec  *casefile.Recorder
	readClients [2]*apiclient.Client
	pending     *pendingRun // a runbook waiting for the approved session

	approval *approval // the customer-approved session, if any
	// ended is the client of the last session ended, whose revoke may
	// still be on its way when the app ends (Close), and endedHeld its
	// record in the state folder.
	ended     *apiclient.Client
	endedHeld *grants.Held
}

// New builds the support console.
func New(deps screenkit.Deps, opts Options) *Screen {
	s := &Screen{Base: screenkit.NewBase(deps, ui.ScreenSupport, "Support console"), opts: opts, keys: newKeys(deps.ReadOnly),
		lookups: table.New(deps.Styles, lookupColumns), log: actionlog.Open(opts.ActionLog),
		grants: grants.Open(opts.GrantsDir), gate: &writeGate{savedSeq: map[string]int{}}}
	if deps.Client != nil {
		s.us = deps.Client.Config().US
		s.consentRec = casefile.NewRecorder(deps.Client.Config().HTTPClient, "client key", deps.Clock)
	}
	s.change = ui.NewChange[actionDone](s.Requests)
	s.sets = table.New(deps.Styles, columnsFor(caseUser))
	s.syncLookups()
	return s
}

// CapturesKeys implements ui.Screen: table filters take letters (the
// forms are layers that say so themselves).
func (s *Screen) CapturesKeys() bool {
	switch {
	case s.view == viewCase:
		return s.sets.Filtering()
	}
	return s.lookups.Filtering()
}

// Enter reads the recent look-ups and opens the one main asked for.
func (s *Screen) Enter() tea.Cmd {
	cmds := []tea.Cmd{s.loadRecent()}
	if !s.opened {
		cmds = append(cmds, s.adoptOrphans())
	}
	if s.opts.CaseFile != "" {
		s.resume = s.opts.User == "" && s.opts.Onboarding == ""
		cmds = append(cmds, s.loadCase(s.opts.CaseFile, ""))
		s.opts.CaseFile = ""
	}
	switch {
	case s.opts.User == "" && s.opts.Onboarding == "" && !s.resume && s.opts.CasesDir != "" && !s.opened:
		cmds = append(cmds, s.deskAtStart()) // the console opens on the desk, if it has cases
	case s.opts.User != "":
		cmds = append(cmds, s.lookUp(caseUser, s.opts.User, s.us, ""))
		s.opts.User = ""
	case s.opts.Onboarding != "":
		cmds = append(cmds, s.lookUp(caseOnboarding, s.opts.Onboarding, s.us, ""))
		s.opts.Onboarding = ""
	}
	s.opened = true
	return tea.Batch(cmds...)
}

// SetSize implements ui.Screen.
func (s *Screen) SetSize(width, height int) {
	s.Width, s.Height = width, height
	caseLine := 0
	if s.caseFile != nil {
		caseLine = 1
	}
	s.lookups.SetSize(width, max(height-3-reachHeight(width)-caseLine-len(s.searchedLines()), 3))
	s.sets.SetSize(width, max(height-s.caseHeaderHeight()-3, 3))
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
	case ui.Result[openedCase]:
		return s, s.gotCaseFile(msg)
	case ui.Result[caseSaved]:
		return s, s.gotCaseSaved(msg)
	case ui.Result[runDone]:
		return s, s.gotRun(msg)
	case ui.Result[loadedRunbooks]:
		return s, s.showRunbooks(msg)
	case ui.KeepEvidenceMsg:
		return s, s.keepFromSession(msg)
	case queue.OpenCaseMsg:
		return s, s.openFromQueue(msg)
	case deskHasCases:
		if s.view == viewLookups && s.kase == nil && s.caseFile == nil {
			return s, s.openQueue()
		}
		return s, nil
	case ui.RefreshMsg:
		return s, s.reload()
	case tea.KeyPressMsg:
		return s, s.handleKey(msg)
	case ui.BodyMouseMsg:
		return s, s.mouse(msg)
	}
	return s, nil
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
	s.kase, s.action = nil, nil
	s.caseSeq++ // its layers close
	s.problem, s.loading, s.unlogged, s.searched = "", false, nil, ""
	if s.caseFile == nil {
		// Without a case file the ticket was the look-up's label; with one
		// it is the case's and stays for the next look-up.
		s.ticket = ""
	}
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

// Inspect offers the gateway's raw answer to the global i: the consent
// look-up's answer (the audit trail's layer offers its own record).
func (s *Screen) Inspect() (string, []byte, bool) {
	if s.kase == nil || s.view != viewCase {
		return "", nil, false
	}
	return screenkit.Inspected("Consent answer for "+string(s.kase.kind)+" "+s.kase.id, s.kase.raw)
}

// notify is a shorthand for the console's information notices.
func notify(text string) tea.Cmd { return ui.Notify(theme.ToneInfo, text) }
