package signin

import (
	"context"
	"errors"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// oauthFlow is one OAuth sign-in in progress on the sign-in screen.
type oauthFlow struct {
	id    int
	pkce  apiclient.PKCE
	state string
	lb    *loopback
	link  string
	qr    [][]bool // the symbol's modules, without quiet zone; nil if too long
	// fromCallback says the code being exchanged came from the loopback.
	fromCallback bool
	exchanging   bool
	problem      string
	// browser is what became of opening the link: unknown until tried.
	browser browserState
}

// browserState is whether the sign-in page opened in a browser here.
type browserState int

const (
	browserOpening browserState = iota
	browserOpened
	browserMissing
)

// oauthOpenedMsg says whether the browser opened the link of a flow.
type oauthOpenedMsg struct {
	flow   int
	ok     bool
	notice ui.NoticeMsg
}

// oauthStarted is the answer of the command that starts a flow.
type oauthStarted struct {
	pkce  apiclient.PKCE
	state string
	lb    *loopback
	link  string
}

// oauthCallbackMsg carries the loopback's answer to the model.
type oauthCallbackMsg struct {
	flow int
	res  callbackResult
}

// oauthKeys are the OAuth panel's bindings.
type oauthKeys struct {
	Submit, Reopen, Copy, Cancel key.Binding
}

func newOAuthKeys() oauthKeys {
	return oauthKeys{
		Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "use the typed code")),
		Reopen: key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "open the link again")),
		// y would type into the code field: ctrl+y copies the link.
		Copy:   key.NewBinding(key.WithKeys("ctrl+y"), key.WithHelp("ctrl+y", "copy the link")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel, back to password")),
	}
}

func (k oauthKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Submit, k.Copy, k.Reopen, k.Cancel}
}
func (k oauthKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Submit, k.Copy, k.Reopen}, {k.Cancel}}
}

// openLink opens the flow's link and reports whether a browser took it, so
// the panel can say what to do when none can (SSH, a headless box).
func openLink(flow int, link string) tea.Cmd {
	open := ui.OpenLabeled("the sign-in page", link)
	return func() tea.Msg {
		n, _ := open().(ui.NoticeMsg)
		return oauthOpenedMsg{flow: flow, ok: n.Notice.Tone == theme.ToneOK, notice: n}
	}
}

func newCodeInput(st *theme.Styles) textinput.Model {
	in := screenkit.NewInput(st)
	in.Prompt = ""
	in.Placeholder = "XXXXX-XXXXX"
	in.CharLimit = 64
	return in
}

// startOAuth begins a flow: PKCE, state, the loopback listener and the
// initiate call all happen in a command, off the update loop.
func (s *Screen) startOAuth() tea.Cmd {
	if s.Deps.Client.Config().SecretKey == "" {
		s.problem = "Signing in with the browser needs the secret key to exchange the code: set " +
			secretKeyEnv + " and start cardterm again, or sign in with the password."
		return nil
	}
	s.closeFlow()
	s.flowSeq++
	s.flow = &oauthFlow{id: s.flowSeq}
	s.mode = modeOAuth
	s.problem = ""
	s.code.SetValue("")
	client := s.Deps.Client
	var cmd tea.Cmd
	s.startID, cmd = ui.Go(s.Requests, func(ctx context.Context) (oauthStarted, error) {
		pk, err := apiclient.NewPKCE()
		if err != nil {
			return oauthStarted{}, err
		}
		state, err := apiclient.NewState()
		if err != nil {
			return oauthStarted{}, err
		}
		lb, err := startLoopback(state)
		if err != nil {
			return oauthStarted{}, err
		}
		link, err := client.AuthorizeInitiate(ctx, apiclient.AuthorizeRequest{
			RedirectURI: lb.redirectURI, State: state, Challenge: pk.Challenge})
		if err != nil {
			lb.close()
			return oauthStarted{}, err
		}
		return oauthStarted{pkce: pk, state: state, lb: lb, link: link}, nil
	})
	return tea.Batch(cmd, s.code.Focus())
}

// closeFlow ends the current flow, if any, and always closes its listener.
func (s *Screen) closeFlow() {
	if s.flow != nil && s.flow.lb != nil {
		s.flow.lb.close()
	}
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
	case ui.Result[oauthStarted]:
		if msg.ID != s.startID || s.flow == nil {
			if msg.Value.lb != nil {
				msg.Value.lb.close() // a flow cancelled while starting
			}
			return nil, true
		}
		if msg.Err != nil {
			return s.endOAuth(oauthProblem(msg.Err)), true
		}
		f := s.flow
		f.pkce, f.state, f.lb, f.link = msg.Value.pkce, msg.Value.state, msg.Value.lb, msg.Value.link
		f.qr = screenkit.QRBits(f.link)
		lb, id := f.lb, f.id
		return tea.Batch(
			func() tea.Msg { return oauthCallbackMsg{flow: id, res: lb.wait()} },
			openLink(id, f.link),
		), true
	case oauthOpenedMsg:
		if f := s.flow; f != nil && msg.flow == f.id {
			f.browser = browserMissing
			if msg.ok {
				f.browser = browserOpened
			}
		}
		n := msg.notice
		return func() tea.Msg { return n }, true
	case oauthCallbackMsg:
		f := s.flow
		if f == nil || msg.flow != f.id || errors.Is(msg.res.err, errLoopbackGone) {
			return nil, true
		}
		if msg.res.stray {
			// Someone else's request: say so and keep waiting for ours.
			lb, id := f.lb, f.id
			return tea.Batch(
				ui.Notify(theme.ToneWarn, "ignored a sign-in answer with the wrong state (not from this sign-in); still waiting"),
				func() tea.Msg { return oauthCallbackMsg{flow: id, res: lb.wait()} },
			), true
		}
		f.lb.close() // one answer per sign-in
		if f.exchanging {
			return nil, true // a typed code is being exchanged already
		}
		if msg.res.err != nil {
			return s.endOAuth(callbackProblem(msg.res)), true
		}
		f.fromCallback = true
		return s.exchange(msg.res.code), true
	case ui.Result[apiclient.Session]:
		if msg.ID != s.exchangeID || s.flow == nil {
			return nil, msg.ID == s.exchangeID
		}
		f := s.flow
		f.exchanging = false
		if msg.Err != nil {
			problem := oauthProblem(msg.Err)
			if f.fromCallback || f.lb == nil {
				return s.endOAuth(problem), true
			}
			// A typed code: let the user correct it; the link still works.
			f.problem = problem
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
	f := s.flow
	f.exchanging, f.problem = true, ""
	client := s.Deps.Client
	verifier, redirect := f.pkce.Verifier, f.lb.redirectURI
	var cmd tea.Cmd
	s.exchangeID, cmd = ui.Go(s.Requests, func(ctx context.Context) (apiclient.Session, error) {
		return client.ExchangeCode(ctx, code, verifier, redirect)
	})
	return cmd
}

// handleOAuthKey handles keys while the OAuth panel is open.
func (s *Screen) handleOAuthKey(msg tea.KeyPressMsg) tea.Cmd {
	f := s.flow
	switch {
	case key.Matches(msg, s.oauthKeys.Cancel):
		s.Deps.Requests.Cancel(ui.ScreenSignIn)
		return s.endOAuth("Sign-in with the browser cancelled.")
	case f == nil || f.lb == nil || f.exchanging:
		return nil // starting or exchanging: only esc
	case key.Matches(msg, s.oauthKeys.Reopen):
		return openLink(f.id, f.link)
	case key.Matches(msg, s.oauthKeys.Copy):
		// The link carries no secret: the PKCE verifier never leaves here.
		return tea.Batch(tea.SetClipboard(f.link), ui.Notify(theme.ToneOK, "copied the sign-in link"))
	case key.Matches(msg, s.oauthKeys.Submit):
		code := strings.TrimSpace(s.code.Value())
		if code == "" {
			f.problem = "Type the code the sign-in page showed (like ABCDE-FGHIJ), or finish in the browser."
			return nil
		}
		f.fromCallback = false
		return s.exchange(code)
	}
	var cmd tea.Cmd
	s.code, cmd = s.code.Update(msg)
	return cmd
}

// oauthView draws the OAuth panel in width x height.
func (s *Screen) oauthView(width, height int) string {
	st := s.Deps.Styles
	f := s.flow
	var qr []string
	if f != nil && f.qr != nil {
		qr = screenkit.QRLines(f.qr, st)
	}
	qrW := 0
	if len(qr) > 0 {
		qrW = lipgloss.Width(qr[0])
	}
	side := len(qr) > 0 && width-qrW-3 >= 34 && len(qr) <= height
	textW := width - 2
	if side {
		textW = width - qrW - 4
	}
	textW = max(min(textW, 60), 20)
	text := s.oauthText(textW, "")
	textLines := strings.Count(text, "\n") + 1
	switch {
	case side:
		return screenkit.Place(screenkit.SideBySide(" "+strings.Join(qr, "\n "), text, qrW+1, "  "), width, height)
	case len(qr) > 0 && len(qr)+textLines+1 <= height && qrW+1 <= width:
		return screenkit.Place(" "+strings.Join(qr, "\n ")+"\n"+text, width, height)
	case f != nil && f.link != "":
		note := "(the QR code needs a larger terminal)"
		if f.qr == nil {
			note = "(the link is too long for a QR code)"
		}
		text = s.oauthText(textW, note)
	}
	return screenkit.Place(" "+strings.ReplaceAll(text, "\n", "\n "), width, height)
}

// oauthText is the panel's text column: what to do (and note, when the QR
// code cannot be shown), the link, the code input and the current state.
func (s *Screen) oauthText(w int, note string) string {
	st := s.Deps.Styles
	f := s.flow
	var b strings.Builder
	b.WriteString(st.Title.Render("Sign in with browser / phone"))
	b.WriteString("\n")
	if f == nil || f.lb == nil {
		b.WriteString(st.Text(theme.ToneInfo).Render("Preparing the sign-in link… (esc cancels)"))
		return b.String()
	}
	switch f.browser {
	case browserOpened:
		b.WriteString(st.Muted.Render(ansi.Wrap("Finish in the browser that opened, or scan the code with a phone.", w, " ")))
	case browserMissing:
		b.WriteString(st.Text(theme.ToneWarn).Render(ansi.Wrap("No browser could be opened here: scan the code with a phone, or copy the link with ctrl+y.", w, " ")))
	default:
		b.WriteString(st.Muted.Render(ansi.Wrap("Opening the browser… or scan the code with a phone.", w, " ")))
	}
	if note != "" {
		b.WriteString("\n" + st.Text(theme.ToneWarn).Render(ansi.Wrap(note, w, " ")))
	}
	b.WriteString("\n\n")
	// The link carries no secret (the PKCE verifier never leaves cardterm):
	// showing it lets users copy it when no browser opens.
	link := ui.Sanitize(f.link)
	ls := st.Link
	if link == f.link && (strings.HasPrefix(link, "https://") || strings.HasPrefix(link, "http://")) {
		// The OSC 8 sequence carries the link as it is: only a clean web
		// link goes into it, or a hostile one could close the sequence and
		// write its own (OSC 52 to the clipboard, say).
		ls = ls.Hyperlink(f.link)
	}
	// One line, never broken inside: the OSC 8 link and ctrl+y carry it
	// whole even where the terminal is too narrow to show all of it.
	b.WriteString(ls.Render(ui.Shorten(link, w)) + "\n")
	b.WriteString("\n" + st.Label.Render("Code shown on the phone") + "\n")
	box := st.InputFocused
	if f.exchanging {
		box = st.Input
	}
	s.code.SetWidth(max(min(w-4, 24), 11))
	b.WriteString(box.Render(s.code.View()) + "\n")
	switch {
	case f.exchanging:
		b.WriteString(st.Text(theme.ToneInfo).Render("Exchanging the code… (esc cancels)"))
	case f.problem != "":
		b.WriteString(st.Text(theme.ToneDanger).Render(ansi.Wrap(ui.Sanitize(f.problem), w, " ")))
	default:
		b.WriteString(st.Muted.Render(ansi.Wrap("Waiting for the browser on "+strings.TrimPrefix(f.lb.redirectURI, "http://")+"…", w, " ")))
	}
	b.WriteString("\n" + st.Muted.Render(ansi.Wrap("enter uses the code · ctrl+y copies the link · esc cancels", w, " ")))
	return b.String()
}
