package support

import (
	"path/filepath"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/domain/casefile"
	"cardterm/screens/support/queue"
	"cardterm/ui"
	"cardterm/ui/layer"
)

// The desk: the console opens on the queue of the cases folder
// (screens/support/queue), which lists every case of the desk. enter
// there opens a case here and goes on with its last look-up; esc goes to
// the look-ups; D on the look-ups comes back.

// deskHasCases says the cases folder holds cases: the console opens on
// the queue (an empty desk opens on the look-ups, where work starts).
type deskHasCases struct{}

// deskAtStart looks for cases in the folder, in a command.
func (s *Screen) deskAtStart() tea.Cmd {
	dir := s.opts.CasesDir
	return func() tea.Msg {
		if files, _ := filepath.Glob(filepath.Join(dir, "case-*.json")); len(files) > 0 {
			return deskHasCases{}
		}
		return nil
	}
}

// openQueue shows the desk's queue, read afresh, as a layer over the
// console.
func (s *Screen) openQueue() tea.Cmd {
	if s.opts.CasesDir == "" {
		return notify("no cases folder: there is no desk to show")
	}
	log, base, clock, gate := s.log, s.entry("", "", ""), s.Deps.Clock, s.gate
	q := queue.New(s.Deps.Styles, s.Requests, queue.Options{Dir: s.opts.CasesDir, Agent: s.agent(),
		ResponseTimes: s.opts.ResponseTimes, Now: s.Deps.Clock,
		Log: func(action, ticket, userID, outcome string) error {
			e := base
			e.Action, e.Ticket, e.UserID, e.Outcome, e.Time = action, ticket, userID, outcome, clock().UTC()
			return log.Append(e)
		},
		Write: func(c *casefile.Case, path, agent string, now time.Time) (casefile.Written, error) {
			saveMu.Lock() // quitting waits for it
			defer saveMu.Unlock()
			if gate.closed {
				return casefile.Written{}, errEnding
			}
			return c.Write(path, agent, now)
		}})
	q.SetSize(s.Width, s.Height)
	return ui.OpenLayer(&queueLayer{s: s, queue: q}, q.Init())
}

// queueLayer is the desk's queue over the console: esc (when the queue
// does not hold the keys) goes to the look-ups, and opening a case
// closes it.
type queueLayer struct {
	s      *Screen
	queue  *queue.Queue
	closed bool
}

var _ layer.Typist = (*queueLayer)(nil)

// Update implements layer.Layer.
func (l *queueLayer) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if !l.queue.CapturesKeys() && key.Matches(msg, l.s.keys.Back) {
			l.closed = true
			return nil
		}
	case queue.OpenCaseMsg:
		l.closed = true // the console opens the case
		return nil
	}
	var cmd tea.Cmd
	l.queue, cmd = l.queue.Update(msg)
	return cmd
}

// SetSize implements layer.Layer.
func (l *queueLayer) SetSize(width, height int) { l.queue.SetSize(width, height) }

// View implements layer.Layer.
func (l *queueLayer) View() string { return l.queue.View() }

// Done implements layer.Layer.
func (l *queueLayer) Done() bool { return l.closed }

// CapturesKeys implements layer.Typist: the queue's filter and its
// hand-over field take every key.
func (l *queueLayer) CapturesKeys() bool { return l.queue.CapturesKeys() }

// openFromQueue opens the case the queue named and goes on with its last
// look-up.
func (s *Screen) openFromQueue(msg queue.OpenCaseMsg) tea.Cmd {
	end := s.endApproval("another case was opened", false)
	s.clearCase()
	s.caseFile, s.casePath, s.view, s.resume = nil, "", viewLookups, true
	return tea.Batch(end, s.loadCase(msg.Path, ""))
}

// KeyMap implements layer.Layer: the queue's keys and esc to the
// look-ups.
func (l *queueLayer) KeyMap() help.KeyMap {
	km := l.queue.KeyMap()
	leave := l.s.keys.Back
	leave.SetHelp(leave.Help().Key, "the look-ups")
	if l.queue.CapturesKeys() {
		return km
	}
	return ui.KeyMapFunc{
		Short: func() []key.Binding { return append(km.ShortHelp(), leave) },
		Full:  func() [][]key.Binding { return append(km.FullHelp(), []key.Binding{leave}) },
	}
}
