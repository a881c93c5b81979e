package main

import (
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	tea "charm.land/bubbletea/v2"
)

// quitOnHangup ends the program cleanly on SIGHUP (the terminal window
// closed, an SSH session dropped, kill -HUP): Bubble Tea restores the
// terminal (alternate screen, raw mode, mouse) as for q, where the
// signal's default action would kill the process and leave it as drawn.
// hungUp reports whether that is how the program ended; stop stops
// watching.
func quitOnHangup(p *tea.Program) (hungUp func() bool, stop func()) {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGHUP)
	done := make(chan struct{})
	var got atomic.Bool
	go func() {
		select {
		case <-signals:
			got.Store(true)
			p.Quit()
		case <-done:
		}
	}()
	return got.Load, func() {
		signal.Stop(signals)
		close(done)
	}
}
