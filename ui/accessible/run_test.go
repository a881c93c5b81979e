package accessible

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// Starting a command never waits for it: a timer (a countdown, the
// alerts' next read) runs in its own goroutine, or the app would stop
// answering for the timer's whole wait.
func TestStartingATimerDoesNotWaitForIt(t *testing.T) {
	rt := &runtime{ctx: t.Context(), messages: make(chan message, 1)}
	started := make(chan struct{})
	go func() {
		rt.start(tea.Tick(time.Hour, func(time.Time) tea.Msg { return nil }), false)
		close(started)
	}()
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("start waited for the timer")
	}
}

// A batch's messages arrive one by one, a timer's marked background.
func TestABatchDeliversEachMessage(t *testing.T) {
	rt := &runtime{ctx: t.Context(), messages: make(chan message, 4)}
	type ping struct{}
	rt.start(tea.Batch(func() tea.Msg { return ping{} }, tea.Tick(time.Millisecond, func(time.Time) tea.Msg { return ping{} })), false)
	var background, foreground int
	for range 2 {
		select {
		case m := <-rt.messages:
			if m.background {
				background++
			} else {
				foreground++
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a batch's message did not arrive")
		}
	}
	if background != 1 || foreground != 1 {
		t.Fatalf("background %d, foreground %d; want 1 and 1", background, foreground)
	}
}
