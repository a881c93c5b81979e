package events

import (
	"cmp"
	"slices"

	tea "charm.land/bubbletea/v2"

	"cardterm/sandbox/webhookreceiver"
	"cardterm/screens/screenkit"
)

// feedBuffer is how many deliveries may wait for the screen before the
// listener drops them for it (the history still has them).
const feedBuffer = 256

// maxShown and maxShownBytes bound the list: the oldest deliveries go
// first. The bodies are the listener's own (shared, never copied).
const (
	maxShown      = 1000
	maxShownBytes = 32 << 20
)

// feed is the screen's subscription to the in-app listener. Deliveries
// reach Update through a command that waits on the channel, one at a
// time, so Update never blocks and never reads the channel itself.
type feed struct {
	receiver    *webhookreceiver.Receiver
	deliveries  <-chan webhookreceiver.Delivery
	unsubscribe func()
	waiting     bool // a wait command is out
	closed      bool // the listener ended the subscription
}

// Messages from the feed's commands, addressed to one feed.
type (
	deliveryMsg struct {
		feed     *feed
		delivery webhookreceiver.Delivery
	}
	historyMsg struct {
		feed       *feed
		deliveries []webhookreceiver.Delivery
	}
	feedClosedMsg struct{ feed *feed }
)

func subscribe(r *webhookreceiver.Receiver) *feed {
	ch, unsubscribe := r.Subscribe(feedBuffer) // ends when the screen is dropped or the listener closes
	return &feed{receiver: r, deliveries: ch, unsubscribe: unsubscribe}
}

// wait returns the command that hands over the next delivery, or nil when
// one is already out.
func (f *feed) wait() tea.Cmd {
	if f.waiting || f.closed {
		return nil
	}
	f.waiting = true
	ch := f.deliveries
	return func() tea.Msg {
		d, ok := <-ch
		if !ok {
			return feedClosedMsg{feed: f}
		}
		return deliveryMsg{feed: f, delivery: d}
	}
}

// history reads what the listener kept, for deliveries the subscription
// dropped while the app was busy.
func (f *feed) history() tea.Cmd {
	r := f.receiver
	return func() tea.Msg { return historyMsg{feed: f, deliveries: r.History()} }
}

// add merges deliveries into the list (newest first, each once), keeps
// the cursor on the delivery it was on, and rebuilds the rows.
func (s *Screen) add(in []webhookreceiver.Delivery) {
	cursor, _ := s.table.Cursor()
	var cursorSeq int64
	if d, ok := s.selected(); ok {
		cursorSeq = d.Seq
	}
	shown := make(map[int64]bool, len(s.deliveries))
	for _, d := range s.deliveries {
		shown[d.Seq] = true
	}
	changed := false
	for _, d := range in {
		if d.Seq <= s.hiddenUpTo || shown[d.Seq] {
			continue
		}
		shown[d.Seq] = true
		s.deliveries = append(s.deliveries, d)
		changed = true
	}
	if !changed {
		return
	}
	slices.SortFunc(s.deliveries, func(a, b webhookreceiver.Delivery) int { return cmp.Compare(b.Seq, a.Seq) })
	s.deliveries = s.deliveries[:keptCount(s.deliveries)]
	s.table.SetRows(rows(s.deliveries))
	s.layout()
	defer s.layoutPane()
	// The cursor follows the newest while it is at the top; otherwise it
	// stays on the delivery being read.
	if cursor == 0 || cursorSeq == 0 {
		s.table.SetCursor(0)
		return
	}
	if i := slices.IndexFunc(s.deliveries, func(d webhookreceiver.Delivery) bool { return d.Seq == cursorSeq }); i >= 0 {
		s.table.SetCursor(i)
	}
}

// keptCount is how many of deliveries (newest first) the list keeps: at
// most maxShown, and bodies of at most maxShownBytes (the newest always).
func keptCount(deliveries []webhookreceiver.Delivery) int {
	bytes := 0
	for i, d := range deliveries {
		bytes += len(d.Body)
		if i == maxShown || (i > 0 && bytes > maxShownBytes) {
			clear(deliveries[i:]) // their bodies go now
			return i
		}
	}
	return len(deliveries)
}

// rows are the table's cells: time, type, result and event id.
func rows(deliveries []webhookreceiver.Delivery) [][]string {
	out := make([][]string, len(deliveries))
	for i, d := range deliveries {
		out[i] = []string{receivedAt(d), orUnknown(d.EventType), result(d), d.EventID}
	}
	return out
}

// receivedAt is when the listener got the delivery, written the app's way.
func receivedAt(d webhookreceiver.Delivery) string {
	return screenkit.FormatTime(d.ReceivedAt.UTC().Format("2006-01-02T15:04:05Z07:00"))
}

// result says verified, or rejected and why in a few words.
func result(d webhookreceiver.Delivery) string {
	if d.Verified {
		return "✓ verified"
	}
	return "✗ rejected: " + d.Reason.Summary()
}

func orUnknown(eventType string) string {
	if eventType == "" {
		return "(no event type)"
	}
	return eventType
}
