package ui

import "cardterm/ui/layer"

// The navigation's screens are built anew whenever the user may change
// (sign-out, an expired session, the end of a customer-approved session;
// a profile switch builds the whole app anew), and the support console
// when a customer signs in, so no screen has code of its own to forget a
// user: the next one gets screens that never saw the last.

// Releaser is implemented by a screen that holds something besides its
// requests (a subscription to the in-app listener): the root calls
// Release when it drops the screen.
type Releaser interface {
	Release()
}

// rebuildScreens drops the navigation's screens and builds them anew,
// sized as the old ones were; the open screen stays the same one by
// place. Without BuildScreens (a root under test with fixed screens) the
// screens stay.
func (r *Root) rebuildScreens() {
	if r.opts.BuildScreens == nil {
		return
	}
	r.retire(r.screens)
	r.screens = r.opts.BuildScreens()
	r.keys.Jump = jumpKeys(r.screens)
	if r.active >= len(r.screens) {
		r.active = 0
	}
	r.navCur = min(r.navCur, max(len(r.screens)-1, 0))
	r.navCache = lineCache{}
	r.resize()
}

// rebuildSupport builds the support console anew when a customer signs
// in on this terminal: the agent's case is not theirs to see.
func (r *Root) rebuildSupport() {
	if r.opts.BuildSupport == nil || r.support == nil {
		return
	}
	r.retire([]Screen{r.support})
	r.support = r.opts.BuildSupport()
}

// retire cancels the requests of screens being dropped, so that no
// answer of the last user's reaches anyone, and closes what they hold, the
// layers open over them and the notices they raised (the log keeps them):
// the next user does not find the last one's error waiting on Card.
func (r *Root) retire(screens []Screen) {
	for _, s := range screens {
		r.opts.Requests.Cancel(s.ID())
		r.dropNotices(func(n Notice) bool { return n.source() == s.ID() })
		r.layers.Close(func(_ layer.Layer, _ layer.Rank, owner string) bool { return owner == string(s.ID()) })
		if held, ok := s.(Releaser); ok {
			held.Release()
		}
	}
}
