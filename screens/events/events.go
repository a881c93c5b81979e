// Package events is the Events screen: the webhook deliveries the in-app
// listener received, newest first, each verified or rejected with the
// reason, its body's fields in a detail pane (i, the app's inspector, shows
// the raw JSON), and
// on a sandbox gateway keys that send a signed test event (t) or deliver
// the selected delivery's event again (R). Clicks select a delivery, the
// wheel moves in the list or scrolls the pane (mouse.go).
package events

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/sandbox/webhookreceiver"
	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/table"
)

// keyMap is the screen's bindings. Test events need a sandbox gateway and
// are disabled, with the reason in their help, anywhere else.
type keyMap struct {
	TestEvent, Resend    key.Binding
	Simulate, SaveView   key.Binding
	ScrollDown, ScrollUp key.Binding // the detail pane
	table                help.KeyMap
}

func newKeyMap(deps screenkit.Deps, table help.KeyMap) keyMap {
	k := keyMap{
		TestEvent:  keymap.Bind("events.test"),
		Resend:     keymap.Bind("events.resend"),
		Simulate:   keymap.Bind("events.simulate"),
		SaveView:   keymap.Bind("events.save-view"),
		ScrollDown: keymap.Bind("events.scroll-down"),
		ScrollUp:   keymap.Bind("events.scroll-up"),
		table:      table,
	}
	switch {
	case deps.ReadOnly:
		k.TestEvent.SetEnabled(false)
		k.Resend.SetEnabled(false)
		k.Simulate.SetEnabled(false)
	case !deps.LocalSandbox():
		k.TestEvent.SetHelp(k.TestEvent.Help().Key, "send a test event (sandbox gateway only)")
		k.TestEvent.SetEnabled(false)
		k.Resend.SetHelp(k.Resend.Help().Key, "deliver this event again (sandbox gateway only)")
		k.Resend.SetEnabled(false)
		k.Simulate.SetHelp(k.Simulate.Help().Key, "simulate card activity (sandbox gateway only)")
		k.Simulate.SetEnabled(false)
	}
	return k
}

// ShortHelp implements help.KeyMap: the detail's scroll keys first, when
// it overflows (they are not the list's ↑/↓ and nothing else tells them).
func (k keyMap) ShortHelp() []key.Binding {
	return append([]key.Binding{k.ScrollDown, k.ScrollUp, k.TestEvent, k.Resend}, k.table.ShortHelp()...)
}

// FullHelp implements help.KeyMap.
func (k keyMap) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{k.TestEvent, k.Simulate, k.Resend, k.ScrollDown, k.ScrollUp, k.SaveView}}, k.table.FullHelp()...)
}

// Screen lists the in-app listener's deliveries.
type Screen struct {
	screenkit.Base
	keys keyMap

	feed *feed // the subscription, ended by Release

	table      table.Table
	deliveries []webhookreceiver.Delivery // newest first
	// hiddenUpTo is the last delivery received before the screen was
	// built: the root builds it anew for each user, and the next user
	// does not see what came for the last one.
	hiddenUpTo int64
	// paneOffset scrolls the detail pane; it starts at the top again when
	// another delivery is selected.
	paneOffset int
	paneSeq    int64
	// paneTitle and paneLines are the pane, built in Update (layoutPane);
	// paneText is what of it the pane's height shows from paneOffset.
	paneTitle string
	paneLines []string
	paneText  string
	// bodies keeps each selected delivery's body fields, labelled, so
	// coming back to a delivery reads its body no more (pane.go).
	bodies bodyFields
	// head is the heading line, built when the deliveries, the listener,
	// the size or the theme change.
	head string

	// The requests of the forms (a test event, simulated card activity),
	// which are layers (openForm).
	triggerID  ui.RequestID
	simulateID ui.RequestID
	// hooks are the partner's webhooks as last read, for the empty list's
	// hint (hint.go); nil before they are.
	hooks   *[]apiclient.Webhook
	hooksID ui.RequestID
	// resend delivers the selected delivery's event again (resend.go).
	resend ui.Change[resent]

	// keysOnSandbox is what Deps.LocalSandbox said when keys were built:
	// a loopback gateway's first answer may turn the sandbox keys on.
	keysOnSandbox bool

	// Layout, from SetSize.
	tableHeight, paneHeight int
}

// New builds the Events screen and subscribes to the in-app listener, so
// nothing it receives before the screen is first opened is lost.
// What came before it was built is another user's (or no one's) and
// stays hidden.
func New(deps screenkit.Deps) *Screen {
	s := &Screen{Base: screenkit.NewBase(deps, screenkit.EventsScreen, "Events")}
	if deps.Events != nil {
		s.hiddenUpTo = deps.Events.Latest()
		s.feed = subscribe(deps.Events)
	}
	s.table = table.New(s.Deps.Styles, columns(s.Width))
	s.keys, s.keysOnSandbox = newKeyMap(s.Deps, s.table.KeyMap()), s.Deps.LocalSandbox()
	s.resend = ui.NewChange[resent](s.Requests)
	s.bodies = bodyFields{}
	return s
}

// Release implements ui.Releaser: the root dropped the screen (the user
// may change), so its subscription ends.
func (s *Screen) Release() {
	if s.feed != nil {
		s.feed.unsubscribe()
	}
}

// KeyMap implements ui.Screen: the list's keys (a form is a layer with
// its own); R is offered only with a delivery to deliver again, the
// detail's scroll keys only when it is taller than its pane.
func (s *Screen) KeyMap() help.KeyMap {
	s.followGateway()
	k := s.keys
	if _, ok := s.selected(); !ok {
		k.Resend.SetEnabled(false)
	}
	overflows := s.maxPaneOffset() > 0
	k.ScrollDown.SetEnabled(overflows)
	k.ScrollUp.SetEnabled(overflows)
	return k
}

// CapturesKeys implements ui.Screen: the table's filter takes
// every key.
func (s *Screen) CapturesKeys() bool { return s.table.Filtering() }

// Enter implements ui.Screen: it starts waiting for deliveries (once) and
// reads the listener's history, for any a full subscription missed.
func (s *Screen) Enter() tea.Cmd {
	if s.feed == nil {
		return nil
	}
	return tea.Batch(s.feed.wait(), s.feed.history(), s.readHooks())
}

// Update implements ui.Screen.
func (s *Screen) Update(msg tea.Msg) (ui.Screen, tea.Cmd) {
	if res, done, cmd := s.resend.Update(msg); done {
		return s, s.resendDone(res)
	} else if cmd != nil {
		return s, cmd
	}
	switch msg := msg.(type) {
	case ui.BodyMouseMsg:
		return s, s.mouse(msg)
	case deliveryMsg:
		if s.feed == nil || msg.feed != s.feed {
			return s, nil
		}
		s.feed.waiting = false
		s.add([]webhookreceiver.Delivery{msg.delivery})
		s.head = s.heading()
		return s, s.feed.wait()
	case historyMsg:
		if s.feed != nil && msg.feed == s.feed {
			s.add(msg.deliveries)
			s.head = s.heading()
		}
	case feedClosedMsg:
		if s.feed != nil && msg.feed == s.feed {
			s.feed.closed = true
			s.head = s.heading()
		}
	case ui.RefreshMsg:
		return s, s.Enter()
	case ui.OpenViewMsg:
		return s, s.openView(msg.View)
	case ui.Result[hooksRead]:
		if msg.ID == s.hooksID && msg.Err == nil {
			hooks := msg.Value.hooks
			s.hooks = &hooks
		}
	case tea.KeyPressMsg:
		cmd := s.handleKey(msg)
		s.layoutPane()
		return s, cmd
	case tea.BackgroundColorMsg:
		s.head = s.heading() // the theme changed
		s.layoutPane()
	}
	return s, nil
}

// followGateway rebuilds the keys once the gateway has said it is a
// sandbox on this machine (learned from an answer, never asked).
func (s *Screen) followGateway() {
	if on := s.Deps.LocalSandbox(); on != s.keysOnSandbox {
		s.keys, s.keysOnSandbox = newKeyMap(s.Deps, s.table.KeyMap()), on
	}
}

func (s *Screen) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	s.followGateway()
	switch {
	case s.table.Filtering():
		cmd, _ := s.table.FilterKey(msg)
		return cmd
	case key.Matches(msg, s.keys.ScrollDown):
		s.paneOffset = min(s.paneOffset+1, s.maxPaneOffset())
		return nil
	case key.Matches(msg, s.keys.ScrollUp):
		s.paneOffset = max(s.paneOffset-1, 0)
		return nil // layoutPane, after every key, draws the pane again
	case key.Matches(msg, s.keys.TestEvent):
		return s.openTestEvent()
	case key.Matches(msg, s.keys.Simulate):
		return s.openSimulate()
	case key.Matches(msg, s.keys.Resend):
		return s.askResend()
	case key.Matches(msg, s.keys.SaveView):
		return s.saveView()
	}
	var cmd tea.Cmd
	s.table, cmd = s.table.Update(msg)
	if d, ok := s.selected(); ok && d.Seq != s.paneSeq {
		s.paneSeq, s.paneOffset = d.Seq, 0
	}
	return cmd
}

// selected is the delivery under the cursor.
func (s *Screen) selected() (webhookreceiver.Delivery, bool) {
	return screenkit.Selected(&s.table, s.deliveries)
}
