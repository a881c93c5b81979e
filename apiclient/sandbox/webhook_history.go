package sandbox

import (
	"slices"
	"time"
)

// Every event sent to a configuration is kept with its attempts, the
// latest whHistorySize per configuration, and answered by the sandbox-only
// GET /v1/webhooks/{id}/deliveries (the interface does not show delivery
// logs), so a client can show each attempt's status, time and number.

// whHistorySize is how many deliveries a configuration keeps.
const whHistorySize = 50

// Delivery states.
const (
	whPending   = "pending"   // the first attempt is under way
	whRetrying  = "retrying"  // an attempt failed; another follows
	whDelivered = "delivered" // a 2xx answer came
	whFailed    = "failed"    // the attempts ran out, or it could not be sent
)

// whDeliveryRec is one event on its way to one configuration.
type whDeliveryRec struct {
	EventID, EventType string
	CreatedAt          time.Time
	State              string
	Attempts           []whAttempt
}

// whAttempt is one try at sending an event.
type whAttempt struct {
	Attempt       int
	At            time.Time
	Status        int    // the receiver's HTTP status; 0 when none came
	Error         string // why it failed; "" on a 2xx answer
	DurationMs    int64
	NextAttemptAt time.Time // when the next try follows; zero when none
}

// whAttemptJSON is the wire form of an attempt.
type whAttemptJSON struct {
	Attempt       int    `json:"attempt"`
	At            string `json:"at"`
	Status        int    `json:"status,omitempty"`
	Error         string `json:"error,omitempty"`
	DurationMs    int64  `json:"durationMs"`
	NextAttemptAt string `json:"nextAttemptAt,omitempty"`
}

func (a whAttempt) toJSON() whAttemptJSON {
	out := whAttemptJSON{Attempt: a.Attempt, At: a.At.UTC().Format(time.RFC3339), Status: a.Status, Error: a.Error, DurationMs: a.DurationMs}
	if !a.NextAttemptAt.IsZero() {
		out.NextAttemptAt = a.NextAttemptAt.UTC().Format(time.RFC3339)
	}
	return out
}

// whDeliveryLog is a configuration's latest attempt, shown on it as
// lastDelivery.
type whDeliveryLog struct {
	EventID   string `json:"eventId"`
	EventType string `json:"eventType"`
	At        string `json:"at"`
	Attempt   int    `json:"attempt"`
	Status    int    `json:"status,omitempty"` // the receiver's HTTP status
	Error     string `json:"error,omitempty"`  // why no 2xx arrived
	State     string `json:"state"`
}

// whDeliveryJSON is the wire form of a delivery.
type whDeliveryJSON struct {
	EventID   string          `json:"eventId"`
	EventType string          `json:"eventType"`
	CreatedAt string          `json:"createdAt"`
	State     string          `json:"state"`
	Attempts  []whAttemptJSON `json:"attempts"`
}

func (d *whDeliveryRec) toJSON() whDeliveryJSON {
	return whDeliveryJSON{EventID: d.EventID, EventType: d.EventType, CreatedAt: d.CreatedAt.UTC().Format(time.RFC3339),
		State: d.State, Attempts: convertAll(d.Attempts, whAttempt.toJSON)}
}

// whStartDelivery adds a pending delivery to h's history. Call with s.mu held.
func whStartDelivery(h *whHook, ev whEvent, now time.Time) *whDeliveryRec {
	rec := &whDeliveryRec{EventID: ev.EventID, EventType: ev.EventType, CreatedAt: now, State: whPending}
	h.deliveries = append(h.deliveries, rec)
	if len(h.deliveries) > whHistorySize {
		h.deliveries = slices.Delete(h.deliveries, 0, len(h.deliveries)-whHistorySize)
	}
	return rec
}

// whFinish records an attempt and the delivery's new state.
func (s *Server) whFinish(t whTarget, a whAttempt, state string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t.record.Attempts = append(t.record.Attempts, a)
	t.record.State = state
	if h := t.partner.find(t.hookID); h != nil {
		h.last = &whDeliveryLog{EventID: t.record.EventID, EventType: t.record.EventType, At: a.At.UTC().Format(time.RFC3339),
			Attempt: a.Attempt, Status: a.Status, Error: a.Error, State: state}
	}
}

// whDeliveries: GET /v1/webhooks/{id}/deliveries (sandbox-only) ->
// {webhookId, deliveries: [...]}, newest first, each with its attempts.
func (s *Server) whDeliveries(c *call) {
	p, ok := s.whOpen(c)
	if !ok {
		return
	}
	whAnswer(c, p, func(h *whHook) any {
		out := make([]whDeliveryJSON, 0, len(h.deliveries))
		for _, d := range slices.Backward(h.deliveries) {
			out = append(out, d.toJSON())
		}
		return map[string]any{"webhookId": h.ID, "deliveries": out}
	})
}
