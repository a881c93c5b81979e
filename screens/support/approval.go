package support

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/actionlog"
	"cardterm/domain/casefile"
	"cardterm/screens/screenkit"
	"cardterm/screens/support/grants"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// The customer-approved session (ctrl+o on a user's case): the app's
// OAuth/PKCE sign-in, shown to the agent as a QR code and a link to send;
// the customer signs in on their own device (the loopback when it is this
// machine, the typed code otherwise). The session is checked to be the
// case's user (else revoked at once), logged, and handed to the root as
// the customer's screens, built read-only; it is revoked when it ends:
// S, the case closing, or the app quitting. It lives in memory only.

// customerScreenIDs are the screens an approved session opens: the
// customer's own data, never the tenant's (consents, webhooks, events).
var customerScreenIDs = []ui.ScreenID{screenkit.AccountScreen, screenkit.CardScreen, screenkit.TransactionsScreen,
	screenkit.WalletsScreen, screenkit.WhitelistScreen, screenkit.DelegationScreen, screenkit.OrdersScreen}

// revokeTimeout bounds the revoke sent when a session ends.
const revokeTimeout = 10 * time.Second

// approval is one customer-approved session, from the sign-in link to
// the revoke.
type approval struct {
	userID string            // the case's user: the only one the session may be
	client *apiclient.Client // the customer's session lives here only
	// rec records the session's answers, for evidence (evidence.go).
	rec  *casefile.Recorder
	flow *screenkit.OAuthFlow
	code textinput.Model
	keys screenkit.OAuthKeys

	logID, startID, exchangeID, checkID ui.RequestID
	// open says the customer's screens are shown.
	open     bool
	customer string
	// entry is the action log's line for this session, filled per event.
	entry actionlog.Entry
	// held is the session's record in the state folder, written before
	// the session is first used and removed once it is revoked, so a
	// crash leaves it for the next start to revoke (grants).
	held *grants.Held
}

var approvalWords = screenkit.OAuthWords{
	Title:   "The customer signs in",
	Opening: "Send the link to the customer or let them scan the code; they read you the code their page shows (on this machine the browser comes back by itself). " + approvalTerms,
	Opened:  "A browser opened here. Send the link to the customer or let them scan the code; they read you the code their page shows. " + approvalTerms,
	Missing: "No browser here: send the link to the customer or let them scan the code, then type the code their page shows. " + approvalTerms,
	Code:    "Code the customer's page shows",
	Copied:  "copied the sign-in link for the customer",
	NoCode:  "Type the code the customer's page shows (like ABCDE-FGHIJ).",
}

// approvalTerms is what the customer approves.
const approvalTerms = "The session is read-only and revoked when the case closes."

// approvedChecked is the answer of the check after the exchange: who
// signed in, and whether the session was refused (and revoked).
type approvedChecked struct {
	user      apiclient.User
	refused   string
	revokeErr error
	logErr    error
	held      *grants.Held
}

// approvalLogged answers the line written before the customer is asked
// to sign in.
type approvalLogged struct{}

// startApproval begins a session for the case's user; the secret key is
// asked for first when there is none (the code exchange needs it).
func (s *Screen) startApproval() tea.Cmd {
	if s.approval != nil {
		return notify("a customer-approved session is already under way")
	}
	s.action = &pendingAction{kind: actionApprove, userID: s.kase.id}
	return s.advance()
}

// openApproval starts the sign-in on a fresh client of the tenant, with
// the secret key, in the case's region.
func (s *Screen) openApproval() tea.Cmd {
	// The customer's session is read-only in the client itself, whatever
	// the console's mode; it may start its own sign-in (the initiate).
	cfg := s.actionClient().Config()
	if s.needSecret() { // on the embedded sandbox, whose key the app knows
		cfg.SecretKey = s.opts.SandboxSecretKey
	}
	cfg.ReadOnly, cfg.ApprovedSession = true, true
	rec := casefile.NewRecorder(s.Deps.Client.Config().HTTPClient, "approved session", s.Deps.Clock)
	cfg.HTTPClient = rec.Client()
	client := apiclient.New(cfg)
	a := &approval{userID: s.kase.id, client: client, rec: rec, flow: screenkit.NewOAuthFlow(),
		code: screenkit.NewCodeInput(s.Deps.Styles), keys: screenkit.NewOAuthKeys("cancel the approved session"),
		entry: s.entry(actionlog.ActionApprovedStart, "OAuth authorization code with PKCE (GET /v1/auth/oauth/authorize/initiate, POST /v1/auth/oauth/token)", s.kase.id)}
	s.approval = a
	// On record before the customer is asked: a session the log cannot
	// hold is never started.
	log, entry, now := s.log, a.entry, s.Deps.Clock
	entry.Action = actionlog.ActionApprovedRequested
	panel := &approvalLayer{caseLayer: s.newCaseLayer(), session: a}
	return ui.OpenLayer(panel, ui.Start(s.Requests, &a.logID, func(context.Context) (approvalLogged, error) {
		return approvalLogged{}, logRequested(log, now, entry)
	}))
}

// updateApproval handles the session's messages; ok is false for others.
func (s *Screen) updateApproval(msg tea.Msg) (tea.Cmd, bool) {
	if end, ok := msg.(ui.EndApprovedSessionMsg); ok {
		return s.endApproval(end.Reason, end.Quit), true
	}
	a := s.approval
	if a == nil {
		return nil, false
	}
	switch msg := msg.(type) {
	case ui.Result[approvalLogged]:
		if msg.ID != a.logID {
			return nil, false
		}
		if msg.Err != nil {
			s.approval = nil
			s.setProblem("approved session " + msg.Err.Error() + "; the customer was not asked to sign in")
			return ui.Notify(theme.ToneDanger, s.problem), true
		}
		var cmd tea.Cmd
		a.startID, cmd = a.flow.Start(s.Requests, a.client)
		return tea.Batch(cmd, a.code.Focus()), true
	case ui.ApprovedViewMsg:
		return s.logView(msg), true
	case ui.Result[screenkit.OAuthStarted]:
		if msg.ID != a.startID {
			return nil, false
		}
		if msg.Err != nil {
			return s.failApproval("the sign-in link could not be made: " + apiclient.ErrorMessage(msg.Err)), true
		}
		return a.flow.Started(msg.Value), true
	case screenkit.OAuthOpenedMsg:
		if msg.Flow != a.flow.ID {
			return nil, false
		}
		a.flow.Opened(msg)
		return nil, true // the panel says whether a browser opened
	case screenkit.OAuthCallbackMsg:
		if msg.Flow != a.flow.ID {
			return nil, false
		}
		return s.approvalCallback(msg.Result), true
	case ui.Result[apiclient.Session]:
		if msg.ID != a.exchangeID {
			return nil, false
		}
		a.flow.Exchanging = false
		if msg.Err != nil {
			if refusedKey(msg.Err) {
				s.forgetSecret()
				return s.failApproval("secret key refused (" + apiclient.ErrorMessage(msg.Err) + "); it was forgotten and is asked for again next time"), true
			}
			if a.flow.FromCallback {
				return s.failApproval("the customer's code was refused: " + apiclient.ErrorMessage(msg.Err)), true
			}
			a.flow.Problem = "The code was refused: " + apiclient.ErrorMessage(msg.Err)
			return a.code.Focus(), true
		}
		a.flow.Close()
		return s.checkApproved(), true
	case ui.Result[approvedChecked]:
		if msg.ID != a.checkID {
			return nil, false
		}
		return s.gotApproved(msg.Value, msg.Err), true
	}
	return nil, false
}

func (s *Screen) approvalCallback(res screenkit.CallbackResult) tea.Cmd {
	a := s.approval
	switch {
	case errors.Is(res.Err, screenkit.ErrLoopbackGone):
		return nil
	case res.Stray:
		return tea.Batch(ui.Notify(theme.ToneWarn, "ignored a sign-in answer with the wrong state; still waiting for the customer"), a.flow.WaitCallback())
	}
	a.flow.Loopback.Close()
	if a.flow.Exchanging {
		return nil
	}
	if res.Err != nil {
		why := res.Err.Error()
		if res.Desc != "" {
			why = res.Desc + " (" + why + ")"
		}
		return s.failApproval("the customer's sign-in did not complete: " + why)
	}
	a.flow.FromCallback = true
	var cmd tea.Cmd
	a.exchangeID, cmd = a.flow.Exchange(s.Requests, a.client, res.Code)
	return cmd
}

func (s *Screen) gotApproved(v approvedChecked, err error) tea.Cmd {
	a := s.approval
	logWarn := logProblem(v.logErr)
	if v.refused != "" || err != nil {
		s.approval = nil
		s.setProblem("approved session refused and revoked: " + v.refused)
		if v.revokeErr != nil {
			s.setProblem("approved session refused: " + v.refused + "; " + revokeOutcome(v.revokeErr))
		}
		if v.logErr != nil && strings.Contains(v.refused, "action log") {
			logWarn = nil // said already
		}
		return tea.Batch(ui.Notify(theme.ToneDanger, s.problem), logWarn)
	}
	a.open = true
	a.held = v.held
	a.customer = customerName(v.user)
	deps := s.Deps
	deps.Client, deps.ReadOnly, deps.Support, deps.Demo = a.client, true, false, nil
	deps.Events, deps.EventsURL = nil, ""
	// Nothing of the customer's is kept on the agent's machine but the
	// case's evidence: no notes on their transactions.
	deps.HolderDir = ""
	var screens []ui.Screen
	var places []int // each screen's place in the app, so it keeps its number
	for place, screen := range s.opts.CustomerScreens(deps) {
		if slices.Contains(customerScreenIDs, screen.ID()) {
			screens, places = append(screens, screen), append(places, place)
		}
	}
	banner := a.customer
	region := regionName(a.client.Config().US)
	open := func() tea.Msg {
		return ui.ApprovedSessionMsg{Customer: banner, Region: region, Screens: screens, Places: places}
	}
	return tea.Batch(open, logWarn, ui.Notify(theme.ToneOK, "customer-approved session open: "+a.customer+", read-only"), s.resumePending())
}

// failApproval ends a sign-in that did not complete, saying why on the
// case.
func (s *Screen) failApproval(problem string) tea.Cmd {
	s.approval.flow.Close()
	s.approval = nil
	s.setProblem("approved session: " + problem)
	return ui.Notify(theme.ToneDanger, s.problem)
}

// endApproval ends the session: a sign-in still waiting is dropped, an
// open session is revoked and logged in a command, whose answer tells
// the root to go back to the console (and to quit, when quitting).
func (s *Screen) endApproval(reason string, quit bool) tea.Cmd {
	a := s.approval
	if a == nil {
		if quit {
			return func() tea.Msg { return ui.ApprovedSessionEndedMsg{Quit: true} }
		}
		return nil
	}
	s.approval = nil
	a.flow.Close()
	if !a.open && !a.client.Session().Valid() {
		return nil
	}
	client, log, entry, now, held := a.client, s.log, a.entry, s.Deps.Clock, a.held
	s.ended, s.endedHeld = client, held
	entry.Action = actionlog.ActionApprovedEnd
	entry.Request = apiclient.RevokeCall().Line()
	return func() tea.Msg {
		err := revoke(client)
		letGo(held, err)
		entry.Time = now().UTC()
		entry.Outcome = reason + "; " + revokeOutcome(err)
		if err == nil {
			entry.Outcome = "ok: " + entry.Outcome
		}
		text := "customer-approved session ended (" + reason + "); " + revokeOutcome(err)
		if lerr := log.Append(entry); lerr != nil {
			text += "; not written to the action log: " + lerr.Error()
		}
		return ui.ApprovedSessionEndedMsg{Reason: text, Quit: quit}
	}
}

// Close revokes a session still open when the app ends without the
// console being told (a hang-up), or one whose revoke had not gone out
// when the program stopped (a second ctrl+c): main calls it after the
// program. A session revoked already is not sent again (Revoke clears it).
// It first waits for the case write in flight and makes the last one.
func (s *Screen) Close() {
	s.finishWrites()
	if cmd := s.endApproval("cardterm ended", false); cmd != nil {
		cmd()
		return
	}
	if s.ended != nil && s.ended.Session().Valid() {
		letGo(s.endedHeld, revoke(s.ended))
	}
}

// customerName is how the banner and the console's messages name a
// customer; the action log names the user id only.
func customerName(u apiclient.User) string {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	switch {
	case name != "" && u.Email != "":
		return name + " (" + u.Email + ")"
	case u.Email != "":
		return u.Email
	case name != "":
		return name
	}
	return "user " + u.ID
}

// approvalKey handles keys while the sign-in panel is open
// (screenkit.HandleOAuthKey).
func (s *Screen) approvalKey(msg tea.KeyPressMsg) tea.Cmd {
	a := s.approval
	k := screenkit.HandleOAuthKey(a.flow, a.keys, &a.code, approvalWords, msg)
	switch {
	case k.Cancel:
		s.Requests.Cancel()
		s.approval = nil
		a.flow.Close()
		return notify("customer-approved session cancelled")
	case k.Code != "":
		var cmd tea.Cmd
		a.exchangeID, cmd = a.flow.Exchange(s.Requests, a.client, k.Code)
		return cmd
	}
	return k.Cmd
}

// approvalView draws the sign-in panel under the case's heading.
func (s *Screen) approvalView() string {
	st := s.Deps.Styles
	head := st.Title.Render("Customer-approved session") + "  " + st.Muted.Render("user ") + st.Value.Render(sanitize.Text(s.approval.userID))
	return head + "\n" + screenkit.OAuthPanel(st, s.approval.flow, &s.approval.code, approvalWords, s.Width, max(s.Height-1, 1))
}
