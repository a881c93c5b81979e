package ui

import (
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/layer"
	"cardterm/ui/sanitize"
)

// handleKey routes a key press: ctrl+c always quits; then the dialog, the
// help overlay, a screen that captures keys, the focused nav, the global
// keys, and finally the active screen.
func (r *Root) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	r.recordKey(msg)
	if key.Matches(msg, r.keys.Presenter) {
		r.presenter.shown, r.presenter.keys = !r.presenter.shown, nil
		return r.resize() // the body gives or takes the box's rows
	}
	if cmd, ok := r.approvedKey(msg); ok {
		return cmd
	}
	if cmd, ok := r.keepKey(msg); ok {
		return cmd
	}
	if key.Matches(msg, r.keys.Interrupt) {
		return tea.Interrupt // exit status 130, as for SIGINT
	}
	if key.Matches(msg, r.keys.Suspend) {
		return tea.Suspend
	}
	// i on an error that carries the gateway's answer opens the answer.
	if r.inspectNoticeAnswer(msg) {
		return r.clearNotice()
	}
	// A warning or an error stays until the user acts: this key is that,
	// for the one on the status bar (another screen's waits for its own).
	var dismiss tea.Cmd
	if n, shown := r.visibleNotice(); shown && n.Sticky() {
		dismiss = r.clearNotice()
	}
	return tea.Batch(dismiss, r.routeKey(msg))
}

// routeKey is handleKey's routing once the notice is dealt with: the
// keys that work anywhere, the top layer, the navigation when it has the
// focus, the global keys, and finally the active screen.
func (r *Root) routeKey(msg tea.KeyPressMsg) tea.Cmd {
	top, rank, open := r.topLayer()
	if cmd, ok := r.keyAnywhere(msg, open && rank >= layer.Dialog); ok {
		return cmd
	}
	// A root layer owns every key; a screen's panel too while it types.
	if open && (rank > layer.Panel || layer.Captures(top)) {
		return r.toActive(msg)
	}
	if !r.focusNav && r.bodyCaptures() {
		return r.toActive(msg)
	}
	if r.focusNav {
		if cmd, ok := r.navKey(msg); ok {
			return cmd
		}
	}
	if cmd, ok := r.globalKey(msg); ok {
		return cmd
	}
	if r.focusNav {
		return nil // the nav has focus: the body gets no keys
	}
	if refused := r.refuseDisabled(msg); refused != nil {
		return refused
	}
	if cmd, ok := r.actionKey(msg); ok {
		return cmd
	}
	return r.toActive(msg)
}

// keyAnywhere handles the help (f1) and the profile switcher, which work
// over everything but a dialog or a prompt (modal).
func (r *Root) keyAnywhere(msg tea.KeyPressMsg, modal bool) (tea.Cmd, bool) {
	switch {
	case modal:
	case key.Matches(msg, r.keys.HelpAnywhere):
		r.toggleSheet(helpSheet)
		return nil, true
	case key.Matches(msg, r.keys.Profiles) && r.switchTo == "":
		r.openProfiles()
		return nil, true
	}
	return nil, false
}

// navKey moves in the focused navigation and opens its entry.
func (r *Root) navKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, r.navKeys.Up):
		r.navCur = max(r.navCur-1, 0)
	case key.Matches(msg, r.navKeys.Down):
		r.navCur = max(min(r.navCur+1, len(r.screens)-1), 0)
	case key.Matches(msg, r.navKeys.Open):
		r.focusNav = false
		if r.navCur < len(r.screens) {
			return r.navigate(r.screens[r.navCur].ID()), true
		}
	default:
		return nil, false
	}
	return nil, true
}

// globalKey handles the keys of the frame: quit, the help, the notices,
// the navigation, the go-to prompt, focus and back.
func (r *Root) globalKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, r.keys.Quit):
		return tea.Quit, true
	case key.Matches(msg, r.keys.Help):
		r.toggleSheet(helpSheet)
	case key.Matches(msg, r.keys.Notices):
		r.toggleSheet(logSheet)
	case key.Matches(msg, r.keys.Nav) && r.signedIn:
		r.navHidden = !r.navHidden
		r.focusNav = r.focusNav && !r.navHidden
		return r.resize(), true
	case key.Matches(msg, r.keys.Jump):
		r.focusNav = false
		if i := r.screenOfKey(msg.String()); r.signedIn && i >= 0 {
			return r.navigate(r.screens[i].ID()), true
		}
	case key.Matches(msg, r.keys.GoTo) && r.signedIn && len(r.screens) > 0:
		r.openGoTo()
	case key.Matches(msg, r.keys.Focus):
		if !r.signedIn || len(r.screens) == 0 {
			return r.toActive(msg), true
		}
		r.focusNav, r.navCur = !r.focusNav, r.active
	case key.Matches(msg, r.keys.Back):
		return r.backKey(msg), true
	default:
		return nil, false
	}
	return nil, true
}

// backKey is esc outside any root layer: it leaves the navigation, else
// cancels the active screen's requests, else goes to the screen (or its
// top panel, which closes).
func (r *Root) backKey(msg tea.KeyPressMsg) tea.Cmd {
	if r.focusNav {
		r.focusNav = false
		return nil
	}
	// Only the active screen's own requests: a load running on another
	// screen carries on.
	if s := r.Active(); s != nil && r.opts.Requests.Cancel(s.ID()) > 0 {
		return Notify(theme.ToneInfo, "request cancelled")
	}
	return r.toActive(msg)
}

// actionKey handles the global keys that act on the active screen:
// refresh, sign out, copy, inspect and open.
func (r *Root) actionKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, r.keys.Refresh) && (r.signedIn || r.Supporting()):
		return r.toActive(RefreshMsg{}), true
	case key.Matches(msg, r.keys.SignOut) && r.signedIn:
		var request []string
		if r.opts.SignOutRequest != nil {
			request = r.opts.SignOutRequest()
		}
		return Confirm(ConfirmSpec{
			Title:        "Sign out?",
			Request:      request,
			Lines:        []string{"The session is ended on the gateway and the tokens are dropped."},
			ConfirmLabel: "Sign out",
			Tone:         theme.ToneWarn,
			OnConfirm:    SignOutMsg{},
		}), true
	case key.Matches(msg, r.keys.Copy):
		if c, ok := r.bodyOffering(func(of any) bool { _, ok := of.(Copier); return ok }).(Copier); ok {
			label, value, ok := c.CopyValue()
			if !ok {
				return Notify(theme.ToneInfo, "nothing to copy"), true
			}
			// The clipboard gets the text the user sees: escape sequences
			// and controls gone, bidi and zero-width characters shown, so a
			// paste into a shell cannot run a hidden command.
			return tea.Batch(tea.SetClipboard(sanitize.Text(value)), Notify(theme.ToneOK, "copied "+label)), true
		}
	case key.Matches(msg, r.keys.Inspect):
		return r.openInspector(), true
	case key.Matches(msg, r.keys.Run) && (r.signedIn || r.Supporting()):
		return r.runCommandKey(), true
	case key.Matches(msg, r.keys.Open):
		if o, ok := r.Active().(Opener); ok {
			label, url, ok := o.OpenValue()
			if !ok {
				return Notify(theme.ToneInfo, "no link to open"), true
			}
			return OpenLabeled(label, url), true
		}
		// No screen binds o for itself: say so rather than do nothing.
		return Notify(theme.ToneInfo, "no link to open"), true
	}
	return nil, false
}

// refuseDisabled says why nothing happens when a key matches one of the
// disabled bindings of the body (the screen's top panel, else the
// screen; read-only mode disables every mutating one), instead of
// ignoring it silently.
func (r *Root) refuseDisabled(msg tea.KeyPressMsg) tea.Cmd {
	s := r.Active()
	if s == nil {
		return nil
	}
	var explainer any = s
	if panel, ok := r.bodyPanel(); ok {
		explainer = panel
	}
	// The reason belongs to the screen whose key it was: it is not shown
	// on the next screen the user opens.
	return stampNotices(r.whyDisabled(r.bodyKeys(), explainer, msg), s.ID())
}

// whyDisabled is the notice for a key that matches only disabled
// bindings of keys, or nil; of says why when it is an Explainer.
func (r *Root) whyDisabled(keys help.KeyMap, of any, msg tea.KeyPressMsg) tea.Cmd {
	pressed := msg.String()
	groups := keys.FullHelp()
	for _, group := range groups {
		for _, b := range group {
			if b.Enabled() && slices.Contains(b.Keys(), pressed) {
				return nil // an enabled binding takes the key
			}
		}
	}
	for _, group := range groups {
		for _, b := range group {
			if !b.Enabled() && slices.Contains(b.Keys(), pressed) {
				why, tone := r.disabledReason(b, of)
				return Notify(tone, why)
			}
		}
	}
	return nil
}
