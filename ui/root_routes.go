package ui

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui/layer"
	"cardterm/ui/sanitize"
)

// Where the root sends things: to the sign-in screen, to every screen, to
// the active one, to another screen; and the sizes it hands them.

// toSignIn leaves the navigation for the sign-in screen (sign-out, an
// expired session), closing what was open over it, with reason as its
// notice.
func (r *Root) toSignIn(reason string, tone theme.Tone) tea.Cmd {
	r.signedIn = false
	r.focusNav = false
	r.closeRootLayers()
	cmds := []tea.Cmd{r.resize()}
	if reason != "" {
		// The sign-in screen says why in its form, where the user looks:
		// the reason goes to the notice log (m), not the status bar too.
		r.logNotice(Notice{Tone: tone, Text: sanitize.Text(reason), Screen: ScreenSignIn, At: r.opts.Now(), stamped: true})
	}
	if r.signIn != nil {
		cmds = append(cmds, stampNotices(r.signIn.Enter(), ScreenSignIn))
	}
	return tea.Batch(cmds...)
}

// resize gives every screen the size of the body (not the window), so
// screens lay out in Update and only draw in View.
func (r *Root) resize() tea.Cmd {
	if r.width == 0 && r.height == 0 {
		return nil
	}
	bw, bh := r.bodySize()
	if r.signIn != nil {
		r.signIn.SetSize(bw, bh)
	}
	if r.support != nil {
		r.support.SetSize(bw, bh)
	}
	for _, s := range r.screens {
		s.SetSize(bw, bh)
	}
	r.layers.SetSize(bw, bh)
	return nil
}

// broadcast forwards a non-key message to every screen and the sign-in
// screen, so that late answers land where they belong.
func (r *Root) broadcast(msg tea.Msg) tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(r.screens)+1)
	if r.signIn != nil {
		var cmd tea.Cmd
		r.signIn, cmd = r.signIn.Update(msg)
		cmds = append(cmds, r.fromScreen(cmd, ScreenSignIn))
	}
	if r.support != nil {
		var cmd tea.Cmd
		r.support, cmd = r.support.Update(msg)
		cmds = append(cmds, r.fromScreen(cmd, ScreenSupport))
	}
	for i, s := range r.screens {
		var cmd tea.Cmd
		r.screens[i], cmd = s.Update(msg)
		cmds = append(cmds, r.fromScreen(cmd, s.ID()))
	}
	// The layers' own answers (a panel's request) reach them too.
	cmds = append(cmds, r.layers.Broadcast(func(cmd tea.Cmd, owner string) tea.Cmd {
		if owner == "" {
			return cmd // the root's own layers' notices show anywhere
		}
		return r.fromScreen(cmd, ScreenID(owner))
	}, msg))
	return tea.Batch(cmds...)
}

// toActive hands input to the top layer over the active screen, else to
// the active screen only.
func (r *Root) toActive(msg tea.Msg) tea.Cmd {
	_, rank, _ := r.topLayer()
	if cmd, ok := r.layers.Update(r.owner(), msg); ok {
		if rank == layer.Panel {
			return r.fromScreen(cmd, ScreenID(r.owner()))
		}
		return cmd
	}
	return r.toScreen(msg)
}

// fromScreen is a command a screen (or its layer) returned: the layers
// it asks for open now, its notices are stamped with the screen.
func (r *Root) fromScreen(cmd tea.Cmd, id ScreenID) tea.Cmd {
	return stampNotices(r.openLayerNow(cmd, id), id)
}

// toScreen hands a message to the active screen itself.
func (r *Root) toScreen(msg tea.Msg) tea.Cmd {
	if !r.signedIn {
		var cmd tea.Cmd
		switch {
		case r.supporting && r.support != nil:
			r.support, cmd = r.support.Update(msg)
			return r.fromScreen(cmd, ScreenSupport)
		case r.signIn != nil:
			r.signIn, cmd = r.signIn.Update(msg)
			return r.fromScreen(cmd, ScreenSignIn)
		}
		return nil
	}
	if r.active < 0 || r.active >= len(r.screens) {
		return nil
	}
	var cmd tea.Cmd
	s := r.screens[r.active]
	r.screens[r.active], cmd = s.Update(msg)
	return r.fromScreen(cmd, s.ID())
}

func (r *Root) navigate(to ScreenID) tea.Cmd {
	if !r.signedIn {
		return nil
	}
	for i, s := range r.screens {
		if s.ID() == to {
			r.navCur = i
			if i == r.active {
				return nil
			}
			r.active = i
			r.closeRootLayers(layer.Sheet, layer.Inspector)
			r.layoutNotice()
			return tea.Batch(stampNotices(s.Enter(), s.ID()), r.approvedViewed(s))
		}
	}
	return nil
}
