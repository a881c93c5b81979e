package ui

import (
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/layer"
	"cardterm/ui/sanitize"
)

// The root's answers to the messages Update routes, one concern each.

// setWindowSize takes the terminal's size.
func (r *Root) setWindowSize(msg tea.WindowSizeMsg) tea.Cmd {
	r.width, r.height = msg.Width, msg.Height
	r.help.SetWidth(msg.Width)
	// A notice raised before the first size (the config file's warning),
	// or one that no longer fits the bar at this width, gets lines of its
	// own now.
	if cmd := r.layoutNotice(); cmd != nil {
		return cmd
	}
	return r.resize()
}

// tick keeps the spinner turning while requests are in flight; another
// spinner's tick goes to the screens.
func (r *Root) tick(msg spinner.TickMsg) tea.Cmd {
	if msg.ID != r.spin.ID() {
		return r.broadcast(msg)
	}
	if r.opts.Requests.InFlight() == 0 {
		r.spinning = false
		return nil
	}
	var cmd tea.Cmd
	r.spin, cmd = r.spin.Update(msg)
	return cmd
}

// updateNotice shows, dismisses or fades a notice.
func (r *Root) updateNotice(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case NoticeMsg:
		return r.setNotice(msg.Notice)
	case DismissNoticeMsg:
		text := sanitize.Text(msg.Text)
		return r.dropNotices(func(n Notice) bool { return n.Text == text })
	case noticeExpireMsg:
		return r.dropNotices(func(n Notice) bool { return n.seq == msg.seq })
	}
	return nil
}

// openDialog shows a confirmation, unless one is open already: a stray
// key cannot replace what the user is reading. The question is about the
// screen: the help and the notices log close for it.
func (r *Root) openDialog(spec ConfirmSpec) {
	if _, open := layer.Find[*dialog](&r.layers, r.owner()); open {
		return
	}
	r.closeRootLayers(layer.Sheet)
	r.openRootLayer(newDialog(spec, r.opts.CurlOf, r.st), layer.Dialog)
}

// openScreenLayer opens a screen's layer over the screen that asked and
// returns what runs then.
func (r *Root) openScreenLayer(msg OpenLayerMsg) tea.Cmd {
	if msg.Layer == nil {
		return msg.Then
	}
	owner := string(msg.Owner)
	if owner == "" {
		owner = r.owner()
	}
	bw, bh := r.bodySize()
	r.layers.SetSize(bw, bh)
	r.layers.Push(msg.Layer, layer.Panel, owner)
	return msg.Then
}

// signedInNow opens the navigation on the screen last shown.
func (r *Root) signedInNow() tea.Cmd {
	r.signedIn, r.supporting = true, false
	r.rebuildSupport()
	r.focusNav = false
	if r.active < 0 || r.active >= len(r.screens) {
		r.active = 0
	}
	var enter tea.Cmd
	if s := r.Active(); s != nil {
		enter = stampNotices(s.Enter(), s.ID())
	}
	r.layoutNotice()
	// Screens that keep something running through a session (the
	// transaction alerts) start it now.
	return tea.Batch(r.resize(), enter, r.broadcast(SessionStartedMsg{}))
}

// updateSession follows a sign-out or an expired session.
func (r *Root) updateSession(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case SignOutMsg:
		if r.signIn == nil {
			return nil
		}
		var cmd tea.Cmd
		r.signIn, cmd = r.signIn.Update(msg)
		return cmd
	case SignedOutMsg:
		if r.switchTo != "" {
			return tea.Quit // signed out for the profile switch
		}
		r.active = 0
		// The next user gets new screens: nothing of this one's is kept.
		r.rebuildScreens()
		return tea.Batch(r.toSignIn(msg.Reason, theme.ToneInfo), r.broadcast(msg))
	case SessionExpiredMsg:
		// Whoever signs in next (this user again or another) gets new
		// screens; the root keeps only which one was open.
		r.rebuildScreens()
		return tea.Batch(r.toSignIn(msg.Reason, theme.ToneWarn), r.broadcast(msg))
	}
	return nil
}

// updateSupport opens or closes the support console.
func (r *Root) updateSupport(msg tea.Msg) tea.Cmd {
	switch msg.(type) {
	case OpenSupportMsg:
		if r.support == nil || r.signedIn {
			return nil
		}
		r.supporting = true
		r.closeRootLayers(layer.Sheet)
		r.layoutNotice()
		return stampNotices(r.support.Enter(), ScreenSupport)
	case CloseSupportMsg:
		if !r.supporting {
			return nil
		}
		r.supporting = false
		r.closeRootLayers(layer.Sheet)
		r.layoutNotice()
		if r.signIn != nil && !r.signedIn {
			return stampNotices(r.signIn.Enter(), ScreenSignIn)
		}
	}
	return nil
}
