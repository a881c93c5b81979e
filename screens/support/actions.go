package support

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/actionlog"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/keymap"
)

// formPurpose says what the open form is for.
type formPurpose int

const (
	formLookup formPurpose = iota
	formSecretKey
	formTypeLast4
	formLinkUser
	formTicket
	formNote
	formEditNote
	formTicketFirst // the ticket a change or a session needs first
)

// actionKind is a change the console can make with the secret key.
type actionKind int

const (
	actionRevoke actionKind = iota + 1
	actionLink
	actionApprove // the customer-approved session's code exchange
)

// pendingAction is a revoke or link on its way: the secret key may be
// asked for, then (on production) the last 4 characters of the user id,
// then the confirmation showing the request.
type pendingAction struct {
	kind         actionKind
	setID        string
	consentID    string
	consentType  string
	policy       string
	userID       string
	onboardingID string
	typed        bool // the agent typed the last 4 characters
}

// actionDone is what a finished action reports: the request sent, the
// line written to the action log, and whether that write failed.
type actionDone struct {
	action  pendingAction
	entry   actionlog.Entry
	logErr  error
	outcome string
}

// startRevoke revokes the selected consent, if it is granted.
func (s *Screen) startRevoke() tea.Cmd {
	r, ok := s.selected()
	if !ok {
		return notify("select a consent to revoke")
	}
	if r.consent.ConsentStatus != apiclient.ConsentGranted {
		return ui.Notify(theme.ToneWarn, "only a granted consent can be revoked; this one is "+r.consent.ConsentStatus)
	}
	s.action = &pendingAction{kind: actionRevoke, setID: r.set.ConsentSetID, consentID: r.consent.ConsentID,
		consentType: r.consent.ConsentType, policy: r.set.PolicyType, userID: s.kase.id}
	return s.advance()
}

// startLink links the selected onboarding set to a user the agent names.
func (s *Screen) startLink() tea.Cmd {
	r, ok := s.selected()
	if !ok {
		return notify("select a consent set to link")
	}
	if r.set.Linked() {
		return ui.Notify(theme.ToneWarn, "this set is linked already (to "+*r.set.UserID+"); a link cannot be changed")
	}
	s.action = &pendingAction{kind: actionLink, setID: r.set.ConsentSetID, policy: r.set.PolicyType, onboardingID: s.kase.id}
	return s.openForm(formLinkUser, form.New(s.Deps.Styles, form.Spec{
		Title:  "Link consent set " + r.set.ConsentSetID + " to a user",
		Lines:  []string{"A link is recorded in the audit trail and cannot be undone."},
		Submit: "continue",
		Fields: []form.Field{{Key: "userId", Label: "User id", CharLimit: 128, Check: nonEmpty("the user id is required")}},
	}))
}

// needSecret reports whether the console must ask for the secret key:
// none was typed, and the app's own is missing or was refused.
func (s *Screen) needSecret() bool {
	return s.secretClient == nil && (s.secretRefused || s.Deps.Client.Config().SecretKey == "")
}

// secretForm asks for the secret key; why says what it is for.
func (s *Screen) secretForm(why string) tea.Cmd {
	lines := []string{why + " It is kept in memory for this session only and never shown."}
	if s.secretRefused {
		lines = append([]string{"The last secret key was refused by the gateway and forgotten."}, lines...)
	}
	return s.openForm(formSecretKey, form.New(s.Deps.Styles, form.Spec{
		Title:  "The secret key is needed",
		Lines:  lines,
		Submit: "continue",
		Fields: []form.Field{{Key: "secretKey", Label: "Secret key", Kind: form.FieldSecret, Check: nonEmpty("the secret key is required")}},
	}))
}

// advance takes the pending action to its next step.
func (s *Screen) advance() tea.Cmd {
	a := s.action
	switch {
	case s.opts.RequireTicket && strings.TrimSpace(s.ticket) == "":
		return s.openForm(formTicketFirst, requiredTicketForm(s.Deps.Styles, a.kind))
	case a.kind == actionApprove && s.needSecret() && (s.opts.SandboxSecretKey == "" || s.secretRefused):
		return s.secretForm("Exchanging the customer's sign-in code needs the tenant's secret key.")
	case a.kind == actionApprove:
		s.action = nil
		return s.openApproval()
	case s.needSecret():
		return s.secretForm("Revoking and linking consents need the tenant's secret key.")
	case s.Deps.Production && !a.typed:
		last4 := lastN(a.userID, 4)
		return s.openForm(formTypeLast4, form.New(s.Deps.Styles, form.Spec{
			Title:  "PRODUCTION: type the last 4 characters of the user id",
			Lines:  []string{"This changes a real customer's consents: user " + a.userID + "."},
			Submit: "continue",
			Fields: []form.Field{{Key: "last4", Label: "Last 4 characters", CharLimit: 4, Check: func(v string) string {
				if v != last4 {
					return "that is not how the user id ends"
				}
				return ""
			}}},
		}))
	}
	return s.change.Ask(s.changeSpec(*a))
}

// actionClient is the client with the secret key: the one the agent
// typed, else the app's.
func (s *Screen) actionClient() *apiclient.Client {
	if s.secretClient != nil {
		return s.secretClient
	}
	if s.us != s.Deps.Client.Config().US {
		cfg := s.Deps.Client.Config()
		cfg.US = s.us
		return apiclient.New(cfg)
	}
	return s.Deps.Client
}

// entry is the action log's line for the case shown, outcome to be
// filled in.
func (s *Screen) entry(action, request, userID string) actionlog.Entry {
	env := s.environment()
	region := "eu"
	if s.us {
		region = "us"
	}
	e := actionlog.Entry{Agent: actionlog.Agent(s.opts.Agent), Ticket: s.ticket, ClientKey: s.Deps.Client.Config().ClientKey,
		Environment: env, Region: region, UserID: userID, Action: action, Request: request}
	if s.kase != nil && s.kase.kind == caseOnboarding {
		e.OnboardingID = s.kase.id
	}
	return e
}

// environment names the gateway's environment in the action log.
func (s *Screen) environment() string {
	switch {
	case s.opts.Environment != "":
		return s.opts.Environment
	case s.Deps.Production:
		return "production"
	}
	return "sandbox"
}

// changeSpec is the confirmation of an action, with the request it sends.
// Its Run sends the request, re-reads what it touched for the outcome,
// and appends the outcome to the action log, all outside Update.
func (s *Screen) changeSpec(a pendingAction) ui.ChangeSpec[actionDone] {
	client, read, log, now := s.actionClient(), s.readClient(), s.log, s.Deps.Clock
	if a.kind == actionLink {
		call := apiclient.LinkConsentSetCall(a.setID, a.userID)
		entry := s.entry("link", strings.Join(call.Lines(), " "), a.userID)
		return ui.ChangeSpec[actionDone]{
			Title:        "Link the consent set to user " + a.userID + "?",
			Request:      call.Lines(),
			Lines:        []string{"The link is recorded in the audit trail and cannot be undone.", "Logged as agent " + entry.Agent + ticketNote(entry.Ticket) + "."},
			ConfirmLabel: "link",
			Tone:         theme.ToneWarn,
			What:         "link",
			Done:         "consent set linked to " + a.userID,
			Run: func(ctx context.Context) (actionDone, error) {
				if err := logRequested(log, now, entry); err != nil {
					return actionDone{action: a, entry: entry}, err
				}
				_, err := client.LinkConsentSet(ctx, a.setID, a.userID)
				return logged(ctx, log, read, now, entry, a, err), err
			},
		}
	}
	call := apiclient.RevokeConsentCall(a.setID, a.consentID)
	entry := s.entry("revoke", call.Line(), a.userID)
	lines := []string{"Revokes " + a.consentType + " of user " + a.userID + ". The original record is kept; a revoked record and an audit record are added."}
	if apiclient.IsRequiredConsent(a.policy, a.consentType) {
		lines = append(lines, a.consentType+" is required by the "+a.policy+" policy: the user's consent status becomes incomplete.")
	}
	lines = append(lines, "Logged as agent "+entry.Agent+ticketNote(entry.Ticket)+".")
	return ui.ChangeSpec[actionDone]{
		Title:        "Revoke " + a.consentType + "?",
		Request:      call.Lines(),
		Lines:        lines,
		ConfirmLabel: "revoke",
		Tone:         theme.ToneDanger,
		What:         "revoke",
		Done:         a.consentType + " revoked",
		Run: func(ctx context.Context) (actionDone, error) {
			if err := logRequested(log, now, entry); err != nil {
				return actionDone{action: a, entry: entry}, err
			}
			_, err := client.RevokeConsent(ctx, a.setID, a.consentID)
			return logged(ctx, log, read, now, entry, a, err), err
		},
	}
}

func ticketNote(ticket string) string {
	if ticket == "" {
		return ", no ticket set (" + keymap.Key("support.ticket") + " sets one)"
	}
	return " under ticket " + ticket
}

// unloggedError refuses a change or a session whose log line could not
// be written: nothing was sent.
type unloggedError struct{ err error }

func (e unloggedError) Error() string {
	return "refused, nothing was sent: " + e.err.Error()
}

func (e unloggedError) Unwrap() error { return e.err }

// logRequested writes the line a change writes before its request: a
// change is sent only once it is on record (unloggedError otherwise).
func logRequested(log *actionlog.Log, now func() time.Time, e actionlog.Entry) error {
	e.Time, e.Outcome = now().UTC(), actionlog.Requested
	if err := log.Append(e); err != nil {
		return unloggedError{err}
	}
	return nil
}

// logged completes a change's log line with its outcome (the user's
// consent status read again after a success) and appends it.
func logged(ctx context.Context, log *actionlog.Log, read *apiclient.Client, now func() time.Time,
	e actionlog.Entry, a pendingAction, err error) actionDone {
	e.Time = now().UTC()
	switch {
	case err != nil && refusedKey(err):
		e.Outcome = "failed: secret key refused (" + apiclient.ErrorMessage(err) + ")"
	case err != nil:
		e.Outcome = "failed: " + apiclient.ErrorMessage(err)
	default:
		e.Outcome = "ok"
		if a.userID != "" {
			if st, rerr := read.UserConsent(ctx, a.userID, false); rerr == nil {
				e.Outcome = "ok; consent status now " + st.ConsentStatus
			}
		}
	}
	return actionDone{action: a, entry: e, outcome: e.Outcome, logErr: log.Append(e)}
}

// refusedKey reports whether the gateway refused the credentials of a
// secret-key action (401 or 403): the key is wrong, or not this tenant's.
func refusedKey(err error) bool {
	return apiclient.IsStatus(err, http.StatusUnauthorized) || apiclient.IsStatus(err, http.StatusForbidden)
}

// reportAction says how a change ended, here on the console: a refused
// secret key is forgotten so that the next action asks again; nothing is
// routed to another screen. A log that could not be written is said too.
func (s *Screen) reportAction(res ui.ChangeResult[actionDone]) tea.Cmd {
	var cmds []tea.Cmd
	var unlogged unloggedError
	switch err := res.Err; {
	case errors.As(err, &unlogged):
		s.setProblem(res.Spec.What + " " + unlogged.Error())
		return ui.Notify(theme.ToneDanger, s.problem)
	case err == nil:
		s.setProblem("")
		cmds = append(cmds, ui.Notify(theme.ToneOK, res.DoneText()+" ("+res.Value.outcome+")"))
	case refusedKey(err):
		s.forgetSecret()
		s.setProblem(res.Spec.What + ": secret key refused (" + apiclient.ErrorMessage(err) + "); it was forgotten and is asked for again next time")
		cmds = append(cmds, ui.Notify(theme.ToneDanger, s.problem))
	default:
		s.setProblem(res.Spec.What + " failed: " + apiclient.ErrorMessage(err))
		cmds = append(cmds, ui.ReportError(res.Spec.What, err))
	}
	if res.Value.logErr != nil {
		// Sent and on record as asked for; its outcome is not.
		cmds = append(cmds, ui.Notify(theme.ToneDanger, res.Spec.What+" sent, but its outcome was not written to the action log: "+res.Value.logErr.Error()))
	}
	return tea.Batch(cmds...)
}

// forgetSecret drops the typed key, or stops using the app's own.
func (s *Screen) forgetSecret() {
	s.secretClient = nil
	s.secretRefused = true
}

// formKey routes a key to the open form and acts on its submission.
func (s *Screen) formKey(l *formLayer, msg tea.KeyPressMsg) tea.Cmd {
	ev, cmd := l.form.Update(msg)
	switch ev {
	case form.Cancel:
		l.closed = true
		switch l.purpose {
		case formLookup, formTicket, formNote, formEditNote:
		default:
			s.action = nil
		}
		return nil
	case form.Submit:
		f := l.form
		l.closed = true
		switch l.purpose {
		case formLookup:
			if id := f.Value(string(caseUser)); id != "" {
				if isAddress(id) {
					return s.searchAddress(strings.TrimSpace(id))
				}
				return s.lookUp(caseUser, id, s.us, "")
			}
			return s.lookUp(caseOnboarding, f.Value(string(caseOnboarding)), s.us, "")
		case formTicket:
			open := s.openTicket(f.Value("ticket"))
			if s.kase == nil {
				return open
			}
			return tea.Batch(open, s.remember(recentLookup{Kind: s.kase.kind, ID: s.kase.id, US: s.us, Ticket: s.ticket}),
				notify("ticket for this case: "+ticketLabel(s.ticket)))
		case formNote:
			return tea.Batch(s.addNote(f.Value("note"), ""), notify("note added to case "+s.ticket))
		case formEditNote:
			return tea.Batch(s.editNote(l.editing, f.Value("note")), notify("note saved in case "+s.ticket))
		case formTicketFirst:
			s.ticket = strings.TrimSpace(f.Value("ticket"))
			if s.kase != nil {
				cmd = s.remember(recentLookup{Kind: s.kase.kind, ID: s.kase.id, US: s.us, Ticket: s.ticket})
			}
			return tea.Batch(cmd, s.advance())
		case formSecretKey:
			cfg := s.readClient().Config()
			cfg.SecretKey = f.Value("secretKey")
			s.secretClient = apiclient.New(cfg)
		case formTypeLast4:
			s.action.typed = true
		case formLinkUser:
			s.action.userID = f.Value("userId")
		}
		if s.action == nil {
			return nil
		}
		return s.advance()
	}
	return cmd
}

// lastN is the last n characters of s.
func lastN(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[len(r)-n:])
}
