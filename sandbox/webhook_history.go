package sandbox

import (
	"encoding/json"
	"slices"
	"time"
)

// Every event sent to a configuration is kept with its attempts, the
// latest webhookHistorySize per configuration, and answered by the sandbox-only
// GET /v1/webhooks/{id}/deliveries (the interface does not show delivery
// logs), so a client can show each attempt's status, time and number.

// webhookHistorySize is how many deliveries a configuration keeps.
const webhookHistorySize = 50

// Delivery states.
const (
	webhookPending   = "pending"   // the first attempt is under way
	webhookRetrying  = "retrying"  // an attempt failed; another follows
	webhookDelivered = "delivered" // a 2xx answer came
	webhookFailed    = "failed"    // the attempts ran out, or it could not be sent
)

// webhookDeliveryRecord is one event on its way to one configuration. It
// keeps the event's body, so a resend (POST /sandbox/events/{id}/resend)
// sends the very same event. Its tags are its stored (fixture) form.
type webhookDeliveryRecord struct {
	EventID   string           `json:"eventId"`
	EventType string           `json:"eventType"`
	CreatedAt time.Time        `json:"createdAt"`
	State     string           `json:"state"`
	Attempts  []webhookAttempt `json:"attempts"`
	Event     json.RawMessage  `json:"event"`
	seq       int              // its record's number in a data directory (persist.go)
}

// webhookAttempt is one try at sending an event.
type webhookAttempt struct {
	Attempt       int       `json:"attempt"`
	At            time.Time `json:"at"`
	Status        int       `json:"status,omitzero"` // the receiver's HTTP status; 0 when none came
	Error         string    `json:"error,omitzero"`  // why it failed; "" on a 2xx answer
	DurationMs    int64     `json:"durationMs"`
	NextAttemptAt time.Time `json:"nextAttemptAt,omitzero"` // when the next try follows; zero when none
}

// webhookAttemptJSON is the wire form of an attempt.
type webhookAttemptJSON struct {
	Attempt       int    `json:"attempt"`
	At            string `json:"at"`
	Status        int    `json:"status,omitempty"`
	Error         string `json:"error,omitempty"`
	DurationMs    int64  `json:"durationMs"`
	NextAttemptAt string `json:"nextAttemptAt,omitempty"`
}

func (a webhookAttempt) toJSON() webhookAttemptJSON {
	out := webhookAttemptJSON{Attempt: a.Attempt, At: a.At.UTC().Format(time.RFC3339), Status: a.Status, Error: a.Error, DurationMs: a.DurationMs}
	if !a.NextAttemptAt.IsZero() {
		out.NextAttemptAt = a.NextAttemptAt.UTC().Format(time.RFC3339)
	}
	return out
}

// webhookDeliveryLog is a configuration's latest attempt, shown on it as
// lastDelivery.
type webhookDeliveryLog struct {
	EventID   string `json:"eventId"`
	EventType string `json:"eventType"`
	At        string `json:"at"`
	Attempt   int    `json:"attempt"`
	Status    int    `json:"status,omitempty"` // the receiver's HTTP status
	Error     string `json:"error,omitempty"`  // why no 2xx arrived
	State     string `json:"state"`
}

// webhookDeliveryJSON is the wire form of a delivery.
type webhookDeliveryJSON struct {
	EventID   string               `json:"eventId"`
	EventType string               `json:"eventType"`
	CreatedAt string               `json:"createdAt"`
	State     string               `json:"state"`
	Attempts  []webhookAttemptJSON `json:"attempts"`
}

func (d *webhookDeliveryRecord) toJSON() webhookDeliveryJSON {
	return webhookDeliveryJSON{EventID: d.EventID, EventType: d.EventType, CreatedAt: d.CreatedAt.UTC().Format(time.RFC3339),
		State: d.State, Attempts: convertAll(d.Attempts, webhookAttempt.toJSON)}
}

// startDeliveryRecordLocked adds a pending delivery to h's history and
// keeps it. Call with s.mu held.
func (s *Server) startDeliveryRecordLocked(p *webhookPartner, h *webhookConfig, eventID, eventType string, body []byte) *webhookDeliveryRecord {
	h.deliverySeq++
	rec := &webhookDeliveryRecord{EventID: eventID, EventType: eventType, CreatedAt: s.now(), State: webhookPending, Event: body, seq: h.deliverySeq}
	var removed []*webhookDeliveryRecord
	h.deliveries, removed = keepNewest(append(h.deliveries, rec), webhookHistorySize)
	s.keepDeliveriesLocked(p, h, rec, removed)
	return rec
}

// webhookFinish records an attempt and the delivery's new state.
func (s *Server) webhookFinish(t webhookTarget, a webhookAttempt, state string) {
	defer s.commitLogged()
	s.mu.Lock()
	defer s.mu.Unlock()
	t.record.Attempts = append(t.record.Attempts, a)
	t.record.State = state
	if h := t.partner.find(t.hookID); h != nil { // not deleted meanwhile
		h.last = &webhookDeliveryLog{EventID: t.record.EventID, EventType: t.record.EventType, At: a.At.UTC().Format(time.RFC3339),
			Attempt: a.Attempt, Status: a.Status, Error: a.Error, State: state}
		s.keepPartnerLocked(t.partner)
		s.keepDeliveriesLocked(t.partner, h, t.record, nil)
	}
}

// webhookDeliveries: GET /v1/webhooks/{id}/deliveries (sandbox-only) ->
// {webhookId, deliveries: [...]}, newest first, each with its attempts.
func (s *Server) webhookDeliveries(c *call) {
	p, ok := s.webhookOpen(c)
	if !ok {
		return
	}
	webhookAnswer(c, p, func(h *webhookConfig) any {
		out := make([]webhookDeliveryJSON, 0, len(h.deliveries))
		for _, d := range slices.Backward(h.deliveries) {
			out = append(out, d.toJSON())
		}
		return map[string]any{"webhookId": h.ID, "deliveries": out}
	})
}
