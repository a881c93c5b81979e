package queue

import (
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/uitest"
)

// The queue's keys come from the registry: a keys file rebinds them, and
// the help shows the key in force.
func TestKeysFileRebindsTheQueue(t *testing.T) {
	uitest.UseKeys(t, "queue.take: T\nqueue.filter: F\n")
	st := theme.New(true, false)
	q := New(&st, ui.NewRequests().For(ui.ScreenSupport), Options{Dir: t.TempDir(), Agent: "ana"})
	for _, c := range []struct {
		binding key.Binding
		want    string
	}{{q.keys.Take, "T"}, {q.keys.Filter, "F"}, {q.keys.Sort, "d"}} {
		if got := c.binding.Keys(); len(got) != 1 || got[0] != c.want || c.binding.Help().Key != c.want {
			t.Errorf("keys %v help %q, want %q", got, c.binding.Help().Key, c.want)
		}
	}
	before := q.filter
	q.key(tea.KeyPressMsg{Code: 'F', Text: "F"})
	if q.filter == before {
		t.Fatal("F (rebound) did not change the filter")
	}
}
