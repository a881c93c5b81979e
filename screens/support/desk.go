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

// openQueue shows the desk's queue, read afresh.
func (s *Screen) openQueue() tea.Cmd {
	if s.opts.CasesDir == "" {
		return notify("no cases folder: there is no desk to show")
	}
	log, base, clock, gate := s.log, s.entry("", "", ""), s.Deps.Clock, s.gate
	s.queue = queue.New(s.Deps.Styles, s.Requests, queue.Options{Dir: s.opts.CasesDir, Agent: s.agent(),
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
	s.queue.SetSize(s.Width, s.Height)
	return s.queue.Init()
}

// queueKey routes a key to the queue; esc (when the queue does not hold
// the keys) goes to the look-ups.
func (s *Screen) queueKey(msg tea.KeyPressMsg) tea.Cmd {
	if !s.queue.CapturesKeys() && key.Matches(msg, s.keys.Back) {
		s.queue = nil
		return nil
	}
	var cmd tea.Cmd
	s.queue, cmd = s.queue.Update(msg)
	return cmd
}

// openFromQueue opens the case the queue named and goes on with its last
// look-up.
func (s *Screen) openFromQueue(msg queue.OpenCaseMsg) tea.Cmd {
	s.queue = nil
	end := s.endApproval("another case was opened", false)
	s.clearCase()
	s.caseFile, s.casePath, s.view, s.resume = nil, "", viewLookups, true
	return tea.Batch(end, s.loadCase(msg.Path, ""))
}

// queueKeyMap is the queue's keys and esc to the look-ups.
func (s *Screen) queueKeyMap() help.KeyMap {
	km := s.queue.KeyMap()
	leave := s.keys.Back
	leave.SetHelp("esc", "the look-ups")
	if s.queue.CapturesKeys() {
		return km
	}
	return ui.KeyMapFunc{
		Short: func() []key.Binding { return append(km.ShortHelp(), leave) },
		Full:  func() [][]key.Binding { return append(km.FullHelp(), []key.Binding{leave}) },
	}
}
