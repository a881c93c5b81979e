package cli

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// The app subscribes to its signals on a goroutine of its own, so the
// first frame does not wait for it; stop still returns only once the
// subscription has ended, so that what runs next (a masked prompt for
// the next profile) has the signals' default actions back.
func TestAppSignalsStopWaitsForTheSubscriptionToEnd(t *testing.T) {
	for range 20 {
		signals := newAppSignals()
		signals.watch(tea.NewProgram(nil))
		signals.stop()
		select {
		case <-signals.stopped:
		default:
			t.Fatal("stop returned while the app was still subscribed to its signals")
		}
	}
}
