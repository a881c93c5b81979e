package events

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/sandbox/webhookreceiver"
)

// BenchmarkKeyPressAmongDeliveries is one key press (Update and View) on
// the Events screen holding the most deliveries it keeps, each with a body
// of 60 fields: the list moves and the detail pane is rebuilt from the
// body's fields, read when the delivery was first selected.
func BenchmarkKeyPressAmongDeliveries(b *testing.B) {
	s := screenWithDeliveries(b)
	benchKeyPresses(b, s, func() {})
}

// BenchmarkKeyPressToAnUnreadDelivery is the same key press onto a
// delivery whose body has not been read yet: the cost of the first visit.
func BenchmarkKeyPressToAnUnreadDelivery(b *testing.B) {
	s := screenWithDeliveries(b)
	benchKeyPresses(b, s, func() { s.bodies = bodyFields{} })
}

// benchKeyPresses presses down and up in turn, calling before ahead of
// each press.
func benchKeyPresses(b *testing.B, s *Screen, before func()) {
	down, up := tea.KeyPressMsg{Code: tea.KeyDown}, tea.KeyPressMsg{Code: tea.KeyUp}
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		key := down
		if i%2 == 1 {
			key = up
		}
		before()
		s.Update(key)
		_ = s.View()
	}
}

// screenWithDeliveries is the Events screen at 120x40 holding maxShown
// deliveries, each with a body of 60 fields.
func screenWithDeliveries(b *testing.B) *Screen {
	s := eventsScreen(b)
	var fields []string
	for i := range 60 {
		fields = append(fields, fmt.Sprintf(`"field_%d":"value %d"`, i, i))
	}
	body := []byte(`{"event_type":"card.frozen","event_object":{` + strings.Join(fields, ",") + `}}`)
	deliveries := make([]webhookreceiver.Delivery, maxShown)
	for i := range deliveries {
		deliveries[i] = delivered(i + 1)
		deliveries[i].Verified, deliveries[i].Reason, deliveries[i].Body = i%3 != 0, webhookreceiver.ReasonSignature, body
	}
	s.Update(historyMsg{feed: s.feed, deliveries: deliveries})
	return s
}
