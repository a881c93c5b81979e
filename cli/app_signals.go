package cli

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// appSignals is how the app answers the signals a terminal program gets,
// so each ends or pauses it with the terminal restored first:
//   - SIGHUP (the window closed, an SSH session dropped) and SIGTERM end
//     it as q does, with the interrupted exit status 130 (SIGINT and
//     ctrl+c are Bubble Tea's own: tea.ErrInterrupted);
//   - SIGTSTP from outside (kill -TSTP) suspends it as ctrl+z does:
//     Bubble Tea leaves the alternate screen and raw mode, then the
//     process stops; fg brings the app back (app_suspend_unix.go).
//
// Without this, SIGHUP's default action kills the process with the
// terminal left as drawn, and SIGTSTP stops it in the alternate screen.
type appSignals struct {
	program     *tea.Program
	signals     chan os.Signal
	done        chan struct{} // closed by stop
	stopped     chan struct{} // closed once the subscription has ended
	interrupted atomic.Bool
	// suspending is set while Bubble Tea is handing the terminal back
	// for a suspension (between its SuspendMsg and its ResumeMsg).
	suspending atomic.Bool
}

func newAppSignals() *appSignals {
	return &appSignals{signals: make(chan os.Signal, 4), done: make(chan struct{}), stopped: make(chan struct{})}
}

// filter is the program's message filter (tea.WithFilter): it follows the
// suspension Bubble Tea is making, wherever it was asked for.
func (s *appSignals) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch msg.(type) {
	case tea.SuspendMsg:
		s.suspending.Store(true)
	case tea.ResumeMsg:
		s.suspending.Store(false)
	}
	return msg
}

// watch starts answering the signals for p, until stop. It subscribes
// on its own goroutine, as Bubble Tea does for its own signals: a
// process's first subscription waits for the runtime to start the
// thread that masks signals, 0.3-0.5 ms the first frame would wait for.
func (s *appSignals) watch(p *tea.Program) {
	s.program = p
	go func() {
		defer close(s.stopped)
		signal.Notify(s.signals, append([]os.Signal{syscall.SIGHUP, syscall.SIGTERM}, stopSignals...)...)
		defer signal.Stop(s.signals)
		for {
			select {
			case sig := <-s.signals:
				s.handle(sig)
			case <-s.done:
				return
			}
		}
	}()
}

func (s *appSignals) handle(sig os.Signal) {
	switch {
	case sig == syscall.SIGHUP || sig == syscall.SIGTERM:
		s.interrupted.Store(true)
		s.program.Quit()
	case s.suspending.Load():
		// Bubble Tea has restored the terminal and signalled the
		// process group to stop: this process stops now.
		stopProcess()
	default:
		// From outside: Bubble Tea restores the terminal first, then
		// stops (its stop signal comes back here, suspending set).
		go s.program.Send(tea.SuspendMsg{})
	}
}

// wasInterrupted reports whether SIGHUP or SIGTERM ended the program.
func (s *appSignals) wasInterrupted() bool { return s.interrupted.Load() }

// stop stops watching: when it returns, the signals have their default
// actions again.
func (s *appSignals) stop() {
	close(s.done)
	<-s.stopped
}
