// Package signin is the sign-in screen: the direct-login form, OAuth with
// PKCE (a QR code, a loopback callback, or a code typed in), the session
// keeper that renews tokens before they expire, and sign-out. The session
// belongs to the sign-in flow, so the shell never touches the API.
package signin

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// signInMode is what the sign-in screen shows.
type signInMode int

const (
	modeForm  signInMode = iota // the direct-login form
	modeOAuth                   // the OAuth panel (ctrl+o)
)

// Screen is the sign-in screen: the direct-login form and, after ctrl+o,
// the OAuth panel (signin_oauth.go). It also keeps the session alive
// (session.go) and performs sign-out, because the session belongs to the
// sign-in flow and the shell must not touch the API.
type Screen struct {
	screenkit.Base
	keys      signInKeys
	oauthKeys screenkit.OAuthKeys
	mode      signInMode
	keeper    *sessionKeeper
	code      textinput.Model // the code typed on the OAuth panel
	flow      *oauthFlow
	// openedNotice is the notice that said the sign-in page opened, taken
	// off the status bar when the browser sign-in is cancelled.
	openedNotice string
	username     textinput.Model
	password     textinput.Model
	focus        int // focusUsername, focusPassword or focusDemo
	// demo lists the sandbox's demo accounts; enter on one fills the form.
	demo table.Table

	loginID    ui.RequestID
	logoutID   ui.RequestID
	startID    ui.RequestID // the command that starts an OAuth flow
	exchangeID ui.RequestID // the OAuth code exchange
	busy       bool
	// logoutOAuth says the sign-out in flight revokes an OAuth session.
	logoutOAuth bool
	// problem is the last failure, shown under the form until the next try.
	problem string
	// reason says why the user is here (signed out, session ended).
	reason string
}

// New builds the sign-in screen; on the sandbox the form comes filled with
// the first demo user so that enter alone signs in.
func New(deps screenkit.Deps) *Screen {
	s := &Screen{Base: screenkit.NewBase(deps, ui.ScreenSignIn, "Sign in"), keys: newSignInKeys(), oauthKeys: newOAuthKeys(), code: screenkit.NewCodeInput(deps.Styles),
		keeper: newSessionKeeper(deps.Client, deps.Clock)}
	// The browser sign-in starts an OAuth authorization, which a read-only
	// client does not send outside a customer-approved session: it is not
	// offered.
	screenkit.DisableInReadOnly(deps.ReadOnly, &s.keys.OAuth)
	s.username = screenkit.NewInput(deps.Styles)
	s.username.Prompt = ""
	s.username.Placeholder = "username or email"
	s.username.CharLimit = 256
	s.password = screenkit.NewInput(deps.Styles)
	s.password.Prompt = ""
	s.password.Placeholder = "password"
	s.password.EchoMode = textinput.EchoPassword
	s.password.EchoCharacter = '•'
	s.password.CharLimit = 256
	s.keys.Support.SetEnabled(deps.Support)
	s.demo = table.New(deps.Styles, []table.Column{{Title: "Account", Width: 18}, {Title: "What it shows", Min: 12}})
	rows := make([][]string, len(deps.Demo))
	for i, d := range deps.Demo {
		rows[i] = []string{d.Username, d.Summary}
	}
	s.demo.SetRows(rows)
	if len(deps.Demo) > 0 {
		s.username.SetValue(deps.Demo[0].Username)
		s.password.SetValue(deps.Demo[0].Password)
		// The keys start on the demo accounts, not in the filled password:
		// ?, q and the digits do what the footer says, and enter signs in
		// as the account selected (the first, the one filled in).
		s.setFocus(focusDemo)
	}
	return s
}

// KeyMap implements ui.Screen.
func (s *Screen) KeyMap() help.KeyMap {
	if s.mode == modeOAuth {
		return s.oauthKeys
	}
	return s.keys
}

// CapturesKeys is true while a text field has focus (the inputs take every
// letter); on the demo-account list the global keys work, so ? opens the
// help there as the footer says.
func (s *Screen) CapturesKeys() bool {
	return s.mode == modeOAuth || s.focus != focusDemo || s.demo.Filtering()
}

// Enter focuses the demo accounts while the form holds one of them (on
// the sandbox, at start and after a sign-out), else the first empty field;
// a session that ended under the user stops the keeper (the reason
// arrives as SessionExpiredMsg).
func (s *Screen) Enter() tea.Cmd {
	if s.keeper.running && !s.Deps.Client.Session().Valid() {
		s.keeper.stop()
	}
	if s.mode == modeOAuth {
		return s.code.Focus()
	}
	if s.holdsDemoAccount() {
		return s.setFocus(focusDemo)
	}
	if s.username.Value() != "" {
		return s.setFocus(1)
	}
	return s.setFocus(s.focus)
}

// Where the keys go on the form.
const (
	focusUsername = iota
	focusPassword
	focusDemo
)

// nextFocus is the focus after tab (or before, with shift+tab): the demo
// list joins the cycle when there is one.
func (s *Screen) nextFocus(step int) int {
	n := 2
	if len(s.Deps.Demo) > 0 {
		n = 3
	}
	return ((s.focus+step)%n + n) % n
}

func (s *Screen) setFocus(i int) tea.Cmd {
	s.focus = i
	switch i {
	case focusUsername:
		s.keys.Enter.SetHelp(s.keys.Enter.Help().Key, "next field")
	case focusPassword:
		s.keys.Enter.SetHelp(s.keys.Enter.Help().Key, "sign in")
	default:
		s.keys.Enter.SetHelp(s.keys.Enter.Help().Key, "sign in")
		s.username.Blur()
		s.password.Blur()
		return nil
	}
	if i == 0 {
		s.password.Blur()
		return s.username.Focus()
	}
	s.username.Blur()
	return s.password.Focus()
}

// Update implements ui.Screen.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if cmd, expired, ok := s.keeper.update(msg); ok {
		if expired != "" {
			s.reason = expired
			return s, tea.Batch(cmd, func() tea.Msg { return ui.SessionExpiredMsg{Reason: expired} })
		}
		return s, cmd
	}
	if cmd, ok := s.updateOAuth(msg); ok {
		return s, cmd
	}
	if paste, ok := msg.(tea.PasteMsg); ok {
		return s, s.paste(paste.Content)
	}
	switch msg := msg.(type) {
	case ui.Result[apiclient.Session]:
		if msg.ID != s.loginID {
			return s, nil
		}
		s.busy = false
		if msg.Err != nil {
			s.problem = signInProblem(msg.Err)
			return s, ui.ReportError("sign-in", msg.Err)
		}
		s.password.SetValue("")
		if len(s.Deps.Demo) > 0 {
			// Keep the demo password so a partner can sign straight back in.
			s.password.SetValue(s.Deps.Demo[0].Password)
		}
		return s, s.signedIn(msg.Value)
	case ui.SignOutMsg:
		s.keeper.stop()
		client := s.Deps.Client
		oauth := client.Session().Kind == apiclient.SessionOAuth
		cmd := ui.Start(s.Requests, &s.logoutID, func(ctx context.Context) (struct{}, error) {
			return struct{}{}, client.SignOut(ctx)
		})
		s.logoutOAuth = oauth
		return s, cmd
	case ui.Result[struct{}]:
		if msg.ID != s.logoutID {
			return s, nil
		}
		reason := "Signed out; the session token is no longer valid."
		if s.logoutOAuth {
			reason = "Signed out; the authorization was revoked at the gateway."
		}
		if msg.Err != nil {
			reason = "Signed out here; the gateway did not confirm the sign-out (" + apiclient.ErrorMessage(msg.Err) + ")."
		}
		return s, func() tea.Msg { return ui.SignedOutMsg{Reason: reason} }
	case tea.BackgroundColorMsg:
		// The root has rebuilt the styles for the terminal's background;
		// these inputs were made before it was known.
		for _, in := range []*textinput.Model{&s.username, &s.password, &s.code} {
			in.SetStyles(ui.InputStyles(s.Deps.Styles))
		}
	case ui.SignedOutMsg:
		s.reason = msg.Reason
	case ui.SessionExpiredMsg:
		s.reason = msg.Reason
		if s.Deps.Client.Config().SecretKey == "" {
			s.reason += " (Without " + secretKeyEnv + " cardterm cannot renew sessions.)"
		}
	case tea.KeyPressMsg:
		return s.handleKey(msg)
	case ui.BodyMouseMsg:
		return s, s.mouse(msg)
	}
	return s, s.updateInputs(msg)
}

// signedIn finishes any sign-in: the root opens the navigation and the
// keeper starts watching the new session.
func (s *Screen) signedIn(sess apiclient.Session) tea.Cmd {
	s.problem, s.reason = "", ""
	who := sess.Username
	if who == "" {
		who = "the authorized user"
	}
	return tea.Batch(
		func() tea.Msg { return ui.SignedInMsg{} },
		ui.Notify(theme.ToneOK, "signed in as "+sanitize.Text(who)),
		s.keeper.start(),
	)
}

func (s *Screen) handleKey(msg tea.KeyPressMsg) (ui.Screen, tea.Cmd) {
	if s.mode == modeOAuth {
		return s, s.handleOAuthKey(msg)
	}
	switch {
	case key.Matches(msg, s.keys.Cancel):
		if s.busy && s.Deps.Requests.Cancel(ui.ScreenSignIn) > 0 {
			s.busy = false
			s.problem = "Sign-in cancelled."
		}
		return s, nil
	case s.busy:
		// One sign-in at a time; typing waits for the answer.
		return s, nil
	case key.Matches(msg, s.keys.OAuth):
		return s, s.startOAuth()
	case key.Matches(msg, s.keys.Support):
		return s, func() tea.Msg { return ui.OpenSupportMsg{} }
	case key.Matches(msg, s.keys.Submit):
		return s.submit()
	case key.Matches(msg, s.keys.Enter):
		switch s.focus {
		case focusUsername:
			return s, s.setFocus(focusPassword)
		case focusDemo:
			return s.useDemo()
		}
		return s.submit()
	case key.Matches(msg, s.keys.Next):
		return s, s.setFocus(s.nextFocus(1))
	case key.Matches(msg, s.keys.Prev):
		return s, s.setFocus(s.nextFocus(-1))
	}
	if s.focus == focusDemo {
		var cmd tea.Cmd
		s.demo, cmd = s.demo.Update(msg)
		return s, cmd
	}
	return s, s.updateInputs(msg)
}

// holdsDemoAccount reports whether the form holds a demo account as it
// was filled in, so nothing the user typed is passed over.
func (s *Screen) holdsDemoAccount() bool {
	for _, d := range s.Deps.Demo {
		if s.username.Value() == d.Username && s.password.Value() == d.Password {
			return true
		}
	}
	return false
}

// useDemo signs in as the selected demo account, filling the form with
// it, so one enter on the list signs in.
func (s *Screen) useDemo() (ui.Screen, tea.Cmd) {
	d, ok := screenkit.Selected(&s.demo, s.Deps.Demo)
	if !ok {
		return s, nil
	}
	s.username.SetValue(d.Username)
	s.password.SetValue(d.Password)
	s.problem = ""
	return s.submit()
}

// paste puts a paste into the field in focus the way every form field
// takes one (form.PasteInto): cleaned, cut to the field's room, and said.
func (s *Screen) paste(content string) tea.Cmd {
	switch {
	case s.mode == modeOAuth:
		return form.PasteInto(&s.code, "Code", content)
	case s.focus == focusUsername:
		return form.PasteInto(&s.username, "Username", content)
	case s.focus == focusPassword:
		return form.PasteInto(&s.password, "Password", content)
	}
	return nil
}

func (s *Screen) updateInputs(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	if s.focus == focusUsername {
		s.username, cmd = s.username.Update(msg)
	} else {
		s.password, cmd = s.password.Update(msg)
	}
	return cmd
}

func (s *Screen) submit() (ui.Screen, tea.Cmd) {
	username := strings.TrimSpace(s.username.Value())
	password := s.password.Value()
	switch {
	case username == "":
		s.problem = "Enter a username."
		return s, s.setFocus(0)
	case password == "":
		s.problem = "Enter the password."
		return s, s.setFocus(1)
	}
	s.busy, s.problem = true, ""
	client := s.Deps.Client
	cmd := ui.Start(s.Requests, &s.loginID, func(ctx context.Context) (apiclient.Session, error) {
		return client.Login(ctx, username, password)
	})
	return s, cmd
}
