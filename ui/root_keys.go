package ui

import (
	"slices"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
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
	// A warning or an error stays until the user acts: this key is that.
	var dismiss tea.Cmd
	if r.notice.Sticky() {
		dismiss = r.clearNotice()
	}
	return tea.Batch(dismiss, r.routeKey(msg))
}

// routeKey is handleKey's routing once the notice is dealt with.
func (r *Root) routeKey(msg tea.KeyPressMsg) tea.Cmd {
	if r.switcher != nil {
		return r.updateProfileSwitcher(msg)
	}
	if r.goTo != nil {
		return r.goToKey(msg)
	}
	if key.Matches(msg, r.keys.HelpAnywhere) && r.dialog == nil {
		r.showHelp, r.showLog = !r.showHelp, false
		return nil
	}
	if key.Matches(msg, r.keys.Profiles) && r.dialog == nil && r.switchTo == "" {
		r.openProfiles()
		return nil
	}
	if r.dialog != nil {
		if done, cmd := r.dialog.update(msg); done {
			r.dialog = nil
			return cmd
		}
		return nil
	}
	if r.inspect != nil {
		return r.inspectorKey(msg)
	}
	if r.showHelp || r.showLog {
		switch {
		case key.Matches(msg, r.keys.Help), key.Matches(msg, r.keys.Back), key.Matches(msg, r.keys.Notices):
			r.showHelp, r.showLog = false, false
		case key.Matches(msg, r.keys.Quit):
			return tea.Quit
		}
		return nil
	}
	if s := r.Active(); s != nil && s.CapturesKeys() && !r.focusNav {
		return r.toActive(msg)
	}
	if r.focusNav {
		switch {
		case key.Matches(msg, r.navKeys.Up):
			if r.navCur > 0 {
				r.navCur--
			}
			return nil
		case key.Matches(msg, r.navKeys.Down):
			if r.navCur < len(r.screens)-1 {
				r.navCur++
			}
			return nil
		case key.Matches(msg, r.navKeys.Open):
			r.focusNav = false
			if r.navCur < len(r.screens) {
				return r.navigate(r.screens[r.navCur].ID())
			}
			return nil
		}
	}
	switch {
	case key.Matches(msg, r.keys.Quit):
		return tea.Quit
	case key.Matches(msg, r.keys.Help):
		r.showHelp = true
		return nil
	case key.Matches(msg, r.keys.Notices):
		r.showLog = true
		return nil
	case key.Matches(msg, r.keys.Nav) && r.signedIn:
		r.navHidden = !r.navHidden
		r.focusNav = r.focusNav && !r.navHidden
		return r.resize()
	case key.Matches(msg, r.keys.Jump):
		if !r.signedIn {
			return nil
		}
		r.focusNav = false
		if i := r.screenOfKey(msg.String()); i >= 0 {
			return r.navigate(r.screens[i].ID())
		}
		return nil
	case key.Matches(msg, r.keys.GoTo) && r.signedIn && len(r.screens) > 0:
		r.openGoTo()
		return nil
	case key.Matches(msg, r.keys.Focus):
		if r.signedIn && len(r.screens) > 0 {
			r.focusNav = !r.focusNav
			r.navCur = r.active
			return nil
		}
		return r.toActive(msg)
	case key.Matches(msg, r.keys.Back):
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
	if r.focusNav {
		return nil // the nav has focus: the body gets no keys
	}
	if refused := r.refuseDisabled(msg); refused != nil {
		return refused
	}
	switch {
	case key.Matches(msg, r.keys.Refresh) && (r.signedIn || r.Supporting()):
		return r.toActive(RefreshMsg{})
	case key.Matches(msg, r.keys.SignOut) && r.signedIn:
		return Confirm(ConfirmSpec{
			Title:        "Sign out?",
			Lines:        []string{"The session is ended on the gateway and the tokens are dropped."},
			ConfirmLabel: "Sign out",
			Tone:         theme.ToneWarn,
			OnConfirm:    SignOutMsg{},
		})
	case key.Matches(msg, r.keys.Copy):
		if c, ok := r.Active().(Copier); ok {
			label, value, ok := c.CopyValue()
			if !ok {
				return Notify(theme.ToneInfo, "nothing to copy")
			}
			// The clipboard gets the text the user sees: escape sequences
			// and controls gone, bidi and zero-width characters shown, so a
			// paste into a shell cannot run a hidden command.
			return tea.Batch(tea.SetClipboard(sanitize.Text(value)), Notify(theme.ToneOK, "copied "+label))
		}
	case key.Matches(msg, r.keys.Inspect):
		return r.openInspector()
	case key.Matches(msg, r.keys.Open):
		if o, ok := r.Active().(Opener); ok {
			label, url, ok := o.OpenValue()
			if !ok {
				return Notify(theme.ToneInfo, "no link to open")
			}
			return OpenLabeled(label, url)
		}
		// No screen binds o for itself: say so rather than do nothing.
		return Notify(theme.ToneInfo, "no link to open")
	}
	return r.toActive(msg)
}

// refuseDisabled says why nothing happens when a key matches one of the
// active screen's disabled bindings (read-only mode disables every
// mutating one), instead of ignoring it silently.
func (r *Root) refuseDisabled(msg tea.KeyPressMsg) tea.Cmd {
	s := r.Active()
	if s == nil {
		return nil
	}
	// The reason belongs to the screen whose key it was: it is not shown
	// on the next screen the user opens.
	return stampNotices(r.whyDisabled(s, msg), s.ID())
}

// whyDisabled is the notice for a key that matches only disabled
// bindings of s, or nil.
func (r *Root) whyDisabled(s Screen, msg tea.KeyPressMsg) tea.Cmd {
	pressed := msg.String()
	groups := s.KeyMap().FullHelp()
	for _, group := range groups {
		for _, b := range group {
			if b.Enabled() && slices.Contains(b.Keys(), pressed) {
				return nil // an enabled binding takes the key
			}
		}
	}
	for _, group := range groups {
		for _, b := range group {
			if b.Enabled() {
				continue
			}
			for _, k := range b.Keys() {
				if k == pressed {
					what := b.Help().Desc
					if what == "" {
						what = "this action"
					}
					if r.opts.ReadOnly {
						return Notify(theme.ToneWarn, "read-only mode: "+what+" is disabled")
					}
					if e, ok := s.(Explainer); ok {
						if why, ok := e.WhyDisabled(pressed); ok {
							return Notify(theme.ToneInfo, why)
						}
					}
					return Notify(theme.ToneInfo, what+" is not available here")
				}
			}
		}
	}
	return nil
}
