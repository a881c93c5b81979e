package layer

import (
	"slices"

	tea "charm.land/bubbletea/v2"
)

// Stack is the open layers, bottom first. Its zero value is empty and
// ready to use.
type Stack struct {
	entries       []entry
	width, height int
}

// entry is one layer with its rank and its owner: the screen that opened
// it, or "" for the root's own layers, shown over every screen.
type entry struct {
	layer Layer
	rank  Rank
	owner string
}

// Push opens l over everything of its rank or lower, sized at once.
func (s *Stack) Push(l Layer, rank Rank, owner string) {
	at := len(s.entries)
	for at > 0 && s.entries[at-1].rank > rank {
		at--
	}
	l.SetSize(s.width, s.height)
	s.entries = slices.Insert(s.entries, at, entry{layer: l, rank: rank, owner: owner})
}

// SetSize sizes every layer, shown or not, to the body.
func (s *Stack) SetSize(width, height int) {
	s.width, s.height = width, height
	for _, e := range s.entries {
		e.layer.SetSize(width, height)
	}
}

// Shown is the layers drawn over owner's screen, bottom first, from the
// topmost one that draws the whole body (nothing under it shows).
func (s *Stack) Shown(owner string) []Layer {
	var shown []Layer
	for i := len(s.entries) - 1; i >= 0; i-- {
		e := s.entries[i]
		if !e.visibleTo(owner) {
			continue
		}
		shown = append(shown, e.layer)
		if !Floats(e.layer) {
			break
		}
	}
	slices.Reverse(shown)
	return shown
}

// visibleTo reports whether e shows over owner's screen: a layer that is
// done (its case closed under it) is neither drawn nor given input, and
// goes at the next Sweep.
func (e entry) visibleTo(owner string) bool {
	return (e.owner == "" || e.owner == owner) && !e.layer.Done()
}

// Top is the layer that gets input over owner's screen, and its rank.
func (s *Stack) Top(owner string) (Layer, Rank, bool) {
	for i := len(s.entries) - 1; i >= 0; i-- {
		if e := s.entries[i]; e.visibleTo(owner) {
			return e.layer, e.rank, true
		}
	}
	return nil, 0, false
}

// Update gives msg (a key, a click, a paste) to the top layer over
// owner's screen alone, then drops the layers that are done. ok is false
// when no layer is open there: the screen gets msg.
func (s *Stack) Update(owner string, msg tea.Msg) (cmd tea.Cmd, ok bool) {
	top, _, ok := s.Top(owner)
	if !ok {
		return nil, false
	}
	cmd = top.Update(msg)
	s.Sweep()
	return cmd, true
}

// Broadcast gives a message that is not input (a request's answer, a
// tick) to every layer; each takes only its own. wrap, if not nil, is
// given each layer's command with the layer's owner.
func (s *Stack) Broadcast(wrap func(cmd tea.Cmd, owner string) tea.Cmd, msg tea.Msg) tea.Cmd {
	if len(s.entries) == 0 {
		return nil
	}
	var cmds []tea.Cmd
	for _, e := range slices.Clone(s.entries) {
		cmd := e.layer.Update(msg)
		if wrap != nil && cmd != nil {
			cmd = wrap(cmd, e.owner)
		}
		cmds = append(cmds, cmd)
	}
	s.Sweep()
	return tea.Batch(cmds...)
}

// Sweep drops the layers that report Done.
func (s *Stack) Sweep() {
	s.entries = slices.DeleteFunc(s.entries, func(e entry) bool { return e.layer.Done() })
}

// Close drops the layers for which drop is true (a screen's layers when
// its session ends, the help when a confirmation opens).
func (s *Stack) Close(drop func(l Layer, rank Rank, owner string) bool) {
	s.entries = slices.DeleteFunc(s.entries, func(e entry) bool { return drop(e.layer, e.rank, e.owner) })
}

// Len is how many layers are open, over any screen.
func (s *Stack) Len() int { return len(s.entries) }

// Each calls f on every layer over owner's screen, top first, until f
// returns false.
func (s *Stack) Each(owner string, f func(l Layer, rank Rank) bool) {
	for i := len(s.entries) - 1; i >= 0; i-- {
		if e := s.entries[i]; e.visibleTo(owner) && !f(e.layer, e.rank) {
			return
		}
	}
}

// Find is the topmost layer of type T over owner's screen.
func Find[T Layer](s *Stack, owner string) (T, bool) {
	var found T
	ok := false
	s.Each(owner, func(l Layer, _ Rank) bool {
		found, ok = l.(T)
		return !ok
	})
	return found, ok
}
