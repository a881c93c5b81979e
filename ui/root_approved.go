package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/layer"
	"cardterm/ui/sanitize"
)

// The customer-approved session: the support console, once a customer
// signed in on their own device and approved it, hands the root the
// customer's screens (built read-only on the customer's session). The
// root shows them in place of the navigation's screens, forced read-only
// for the session's whole life, under a banner naming the customer, until
// the console says the session ended. Ending it (S or q, asked first
// through the one confirmation dialog; a 401; ctrl+c, which also quits)
// goes through the console, which revokes the session first. Every
// screen opened in the session is told to the console
// (ApprovedViewMsg), which logs it.

type (
	// ApprovedSessionMsg opens a customer-approved session. Customer
	// names the customer on the banner; Region ("EU" or "US") is the
	// backend the session lives on, shown on the status bar.
	ApprovedSessionMsg struct {
		Customer string
		Region   string
		Screens  []Screen
		// Places are the screens' places in the app's navigation, from 0,
		// so that each keeps its number key; nil numbers them in order.
		Places []int
	}
	// ApprovedViewMsg tells the support console a screen of the approved
	// session was opened, for its action log.
	ApprovedViewMsg struct {
		Screen ScreenID
		Title  string
	}
	// EndApprovedSessionMsg asks the support console to end the session
	// (it revokes it); Reason says why, Quit quits the app afterwards. The
	// console may raise it too (its action log cannot be written): the
	// root then ends the session the same way, once.
	EndApprovedSessionMsg struct {
		Reason string
		Quit   bool
	}
	// ApprovedSessionEndedMsg is the console's answer once the session is
	// revoked: the root goes back to the console, saying Reason.
	ApprovedSessionEndedMsg struct {
		Reason string
		Quit   bool
	}
)

// approvedSession is what the root put aside while a customer-approved
// session is shown.
type approvedSession struct {
	customer string
	region   string
	screens  []Screen
	readOnly bool
	jump     key.Binding
	quit     key.Binding
	signOut  key.Binding
	ending   bool
	// interrupted: ctrl+c ends it, so the app exits as interrupted (130)
	// once the session is revoked.
	interrupted bool
}

// Approved reports whether a customer-approved session is shown, and
// whose.
func (r *Root) Approved() (customer string, ok bool) {
	if r.approved == nil {
		return "", false
	}
	return r.approved.customer, true
}

// updateApproved handles the approved session's messages, and while one
// is open the messages that would end a session; ok is false for others.
func (r *Root) updateApproved(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case ApprovedSessionMsg:
		if r.approved != nil || r.signedIn || r.support == nil {
			return nil, true
		}
		return r.openApproved(msg), true
	case ApprovedSessionEndedMsg:
		if r.approved == nil {
			return nil, true
		}
		return r.closeApproved(msg), true
	}
	if r.approved == nil {
		return nil, false
	}
	switch msg := msg.(type) {
	case EndApprovedSessionMsg:
		return r.endApproved(msg.Reason, msg.Quit), true
	case SignOutMsg:
		return r.endApproved("the agent ended the customer-approved session", false), true
	case SessionExpiredMsg:
		return r.endApproved("the customer's session ended: "+msg.Reason, false), true
	case SignedOutMsg:
		return r.endApproved("the customer's session ended", false), true
	case KeepEvidenceMsg:
		// The agent's answer to the console's question on personal data.
		var cmd tea.Cmd
		r.support, cmd = r.support.Update(msg)
		return stampNotices(cmd, msg.Screen), true
	}
	return nil, false
}

// approvedKey ends the session: q and S ask first (the one confirmation
// dialog) and go back to the console; ctrl+c ends it and quits, so that
// the revoke is sent before the app ends. ok is false for any other key.
func (r *Root) approvedKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if r.approved == nil {
		return nil, false
	}
	if key.Matches(msg, r.keys.Interrupt) {
		r.approved.interrupted = true
		return r.endApproved("cardterm was quit", true), true
	}
	_, sheet := r.sheetShown()
	free := sheet || r.topRank() < int(layer.Inspector)
	if key.Matches(msg, r.keys.Quit) && free && (sheet || !r.bodyCaptures()) {
		return r.askEndApproved(), true
	}
	if key.Matches(msg, r.keys.SignOut) && free && !sheet && !r.focusNav && !r.bodyCaptures() {
		return r.askEndApproved(), true
	}
	return nil, false
}

// askEndApproved asks whether to end the session; yes ends it as S does.
func (r *Root) askEndApproved() tea.Cmd {
	r.closeRootLayers(layer.Sheet)
	return Confirm(ConfirmSpec{
		Title:        "End the customer-approved session?",
		Request:      r.opts.EndApprovedRequest,
		Lines:        []string{"The customer's approval is revoked at the gateway; the console comes back."},
		ConfirmLabel: "End and revoke",
		Tone:         theme.ToneWarn,
		OnConfirm:    SignOutMsg{},
	})
}

// approvedViewed tells the console the screen s was opened in the
// session, for its log.
func (r *Root) approvedViewed(s Screen) tea.Cmd {
	if r.approved == nil || s == nil || r.support == nil {
		return nil
	}
	var cmd tea.Cmd
	r.support, cmd = r.support.Update(ApprovedViewMsg{Screen: s.ID(), Title: s.Title()})
	return stampNotices(cmd, ScreenSupport)
}

// quitProgram ends the program: as interrupted (exit status 130) when ctrl+c
// ended the session.
func (a *approvedSession) quitProgram() tea.Cmd {
	if a.interrupted {
		return tea.Interrupt
	}
	return tea.Quit
}

// endApproved asks the console to revoke the session, once.
func (r *Root) endApproved(reason string, quit bool) tea.Cmd {
	if r.approved.ending {
		if quit {
			return r.approved.quitProgram() // a second ctrl+c does not wait for the revoke
		}
		return nil
	}
	r.approved.ending = true
	var cmd tea.Cmd
	r.support, cmd = r.support.Update(EndApprovedSessionMsg{Reason: reason, Quit: quit})
	return tea.Batch(stampNotices(cmd, ScreenSupport), Notify(theme.ToneInfo, "revoking the customer's session…"))
}

func (r *Root) openApproved(msg ApprovedSessionMsg) tea.Cmd {
	r.approved = &approvedSession{customer: msg.Customer, region: msg.Region, screens: r.screens, readOnly: r.opts.ReadOnly,
		jump: r.keys.Jump, quit: r.keys.Quit, signOut: r.keys.SignOut}
	screens := slices.Clone(msg.Screens) // in the navigation's order
	r.screens, r.opts.ReadOnly, r.places = screens, true, slices.Clone(msg.Places)
	r.keys.Jump = jumpKeysOf(r.numberKeys())
	// Quit and S ask to end the session and come back to the console (the
	// agent stays signed in): the help says so.
	r.keys.Quit.SetHelp(r.keys.Quit.Help().Key, "end the session")
	r.keys.SignOut.SetHelp(r.keys.SignOut.Help().Key, "end the session")
	r.signedIn, r.active, r.navCur, r.focusNav = true, 0, 0, false
	r.closeRootLayers()
	r.footerCache, r.statusCache, r.navCache = lineCache{}, lineCache{}, lineCache{}
	var enter, viewed tea.Cmd
	if s := r.Active(); s != nil {
		enter = stampNotices(s.Enter(), s.ID())
		viewed = r.approvedViewed(s)
	}
	r.layoutNotice()
	return tea.Batch(r.resize(), enter, viewed)
}

func (r *Root) closeApproved(msg ApprovedSessionEndedMsg) tea.Cmd {
	a := r.approved
	r.approved = nil
	r.retire(r.screens) // the customer's
	r.screens, r.opts.ReadOnly, r.keys.Jump, r.keys.Quit, r.keys.SignOut, r.places = a.screens, a.readOnly, a.jump, a.quit, a.signOut, nil
	r.rebuildScreens()
	r.signedIn, r.active, r.navCur, r.focusNav = false, 0, 0, false
	r.closeRootLayers()
	r.footerCache, r.statusCache, r.navCache = lineCache{}, lineCache{}, lineCache{}
	if msg.Quit || r.switchTo != "" {
		return a.quitProgram()
	}
	cmds := []tea.Cmd{r.resize()}
	if msg.Reason != "" {
		cmds = append(cmds, r.setNotice(Notice{Tone: theme.ToneInfo, Text: sanitize.Text(msg.Reason), Screen: ScreenSupport, stamped: true}))
	}
	return tea.Batch(cmds...)
}

// bannerHeight is the lines the approved session's banner takes.
func (r *Root) bannerHeight() int {
	if r.approved == nil || r.height < 4 {
		return 0
	}
	return 1
}

// renderBanner is the approved session's banner, the frame's first line:
// whose session this is, that it is read-only, and how it ends.
func (r *Root) renderBanner() string {
	text := " READ-ONLY · CUSTOMER-APPROVED SESSION: " + sanitize.Text(r.approved.customer) + " · q ends it and revokes the approval "
	return FitLine(r.st.Badge(text, theme.ToneWarn), r.width)
}
