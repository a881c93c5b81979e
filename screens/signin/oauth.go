package signin

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
)

// The sign-in screen's OAuth panel: the browser or phone sign-in of
// screenkit's OAuthFlow, ending in this screen's session.

// oauthFlow is one OAuth sign-in in progress on the sign-in screen.
type oauthFlow = screenkit.OAuthFlow

// oauthWords are what the sign-in screen's panel says, with the keys in
// force.
func oauthWords() screenkit.OAuthWords {
	return screenkit.OAuthWords{
		Title:   "Sign in with browser / phone",
		Opening: "Opening the browser… or scan the code with a phone.",
		Opened:  "Finish in the browser that opened, or scan the code with a phone.",
		Missing: "No browser could be opened here: scan the code with a phone, or copy the link with " + keymap.Key("screenkit.copy") + ".",
		Code:    "Code shown on the phone",
		Copied:  "copied the sign-in link",
		NoCode:  "Type the code the sign-in page showed (like ABCDE-FGHIJ), or finish in the browser.",
	}
}

func newOAuthKeys() screenkit.OAuthKeys { return screenkit.NewOAuthKeys("cancel, back to password") }

// startOAuth begins a flow: PKCE, state, the loopback listener and the
// initiate call all happen in a command, off the update loop.
func (s *Screen) startOAuth() tea.Cmd {
	if s.Deps.Client.Config().SecretKey == "" {
		s.problem = "Signing in with the browser needs the secret key to exchange the code: set " +
			secretKeyEnv + " and start cardterm again, or sign in with the password."
		return nil
	}
	s.closeFlow()
	s.flow = screenkit.NewOAuthFlow()
	s.mode = modeOAuth
	s.problem = ""
	s.code.SetValue("")
	var cmd tea.Cmd
	s.startID, cmd = s.flow.Start(s.Requests, s.Deps.Client)
	return tea.Batch(cmd, s.code.Focus())
}

// closeFlow ends the current flow, if any, and always closes its listener.
func (s *Screen) closeFlow() {
	s.flow.Close()
	s.flow = nil
}

// endOAuth goes back to the password form with problem shown under it.
func (s *Screen) endOAuth(problem string) tea.Cmd {
	s.closeFlow()
	s.mode = modeForm
	s.problem = problem
	s.code.Blur()
	return s.setFocus(s.focus)
}

// updateOAuth handles the flow's messages; ok is false for other messages.
func (s *Screen) updateOAuth(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case ui.Result[screenkit.OAuthStarted]:
		if msg.ID != s.startID || s.flow == nil {
			// A flow cancelled while starting: its listener closed with it.
			return nil, msg.ID == s.startID
		}
		if msg.Err != nil {
			return s.endOAuth(oauthProblem(msg.Err)), true
		}
		return s.flow.Started(msg.Value), true
	case screenkit.OAuthOpenedMsg:
		if s.flow == nil || msg.Flow != s.flow.ID {
			return nil, false
		}
		s.flow.Opened(msg)
		n := msg.Notice
		s.openedNotice = n.Notice.Text
		return func() tea.Msg { return n }, true
	case screenkit.OAuthCallbackMsg:
		f := s.flow
		if f == nil || msg.Flow != f.ID {
			return nil, false
		}
		if errors.Is(msg.Result.Err, screenkit.ErrLoopbackGone) {
			return nil, true
		}
		if msg.Result.Stray {
			// Someone else's request: say so and keep waiting for ours.
			return tea.Batch(
				ui.Notify(theme.ToneWarn, "ignored a sign-in answer with the wrong state (not from this sign-in); still waiting"),
				f.WaitCallback(),
			), true
		}
		f.Loopback.Close() // one answer per sign-in
		if f.Exchanging {
			return nil, true // a typed code is being exchanged already
		}
		if msg.Result.Err != nil {
			return s.endOAuth(callbackProblem(msg.Result)), true
		}
		f.FromCallback = true
		return s.exchange(msg.Result.Code), true
	case ui.Result[apiclient.Session]:
		if msg.ID != s.exchangeID || s.flow == nil {
			return nil, msg.ID == s.exchangeID
		}
		f := s.flow
		f.Exchanging = false
		if msg.Err != nil {
			problem := oauthProblem(msg.Err)
			if f.FromCallback || f.Loopback == nil {
				return s.endOAuth(problem), true
			}
			// A typed code: let the user correct it; the link still works.
			f.Problem = problem
			return s.code.Focus(), true
		}
		s.closeFlow()
		s.mode = modeForm
		s.code.SetValue("")
		return s.signedIn(msg.Value), true
	}
	return nil, false
}

// exchange trades code for a session in a command.
func (s *Screen) exchange(code string) tea.Cmd {
	var cmd tea.Cmd
	s.exchangeID, cmd = s.flow.Exchange(s.Requests, s.Deps.Client, code)
	return cmd
}

// handleOAuthKey handles keys while the OAuth panel is open
// (screenkit.HandleOAuthKey).
func (s *Screen) handleOAuthKey(msg tea.KeyPressMsg) tea.Cmd {
	k := screenkit.HandleOAuthKey(s.flow, s.oauthKeys, &s.code, oauthWords(), msg)
	switch {
	case k.Cancel:
		s.Deps.Requests.Cancel(ui.ScreenSignIn)
		// The form says it is cancelled; the status bar must not go on
		// saying the page opened.
		return tea.Batch(s.endOAuth("Sign-in with the browser cancelled."), ui.DismissNotice(s.openedNotice))
	case k.Code != "":
		return s.exchange(k.Code)
	}
	return k.Cmd
}

// oauthView draws the OAuth panel in width x height.
func (s *Screen) oauthView(width, height int) string {
	return screenkit.OAuthPanel(s.Deps.Styles, s.flow, &s.code, oauthWords(), width, height)
}
