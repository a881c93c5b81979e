package sandbox

import (
	"net/http"
	"slices"
	"strings"
)

// ReplayedEvent is one event POST /sandbox/events/replay delivered again.
type ReplayedEvent struct {
	EventID   string `json:"eventId"`
	EventType string `json:"eventType"`
	State     string `json:"state"` // delivered or failed, after the usual retries
}

// replayRoute: POST /sandbox/events/replay (event_history.go).
func (s *Server) replayRoute(c *call) {
	var in struct {
		WebhookID string `json:"webhookId"`
		Type      string `json:"type"`
		User      string `json:"user"`
		Since     string `json:"since"`
		After     string `json:"after"`
	}
	if !c.decode(&in) {
		return
	}
	f, status, problem := s.eventFilterOf(c.be, in.Type, in.User, in.Since, in.After)
	if problem == "" && in.Since == "" && in.After == "" {
		status, problem = http.StatusBadRequest, "give since (a duration or a time) or after (an event id): which events to deliver again"
	}
	if problem != "" {
		c.fail(status, problem)
		return
	}
	s.mu.Lock()
	p := s.webhookPartnerOf(c.be)
	hook := p.find(strings.TrimSpace(in.WebhookID))
	var picked []keptEvent
	found := false
	if hook != nil {
		picked, found = f.pick(p.events)
		picked = slices.DeleteFunc(slices.Clone(picked), func(e keptEvent) bool { return !slices.Contains(hook.EventTypes, e.EventType) })
	}
	s.mu.Unlock()
	switch {
	case hook == nil:
		c.fail(http.StatusNotFound, "Webhook configuration not found")
		return
	case !found:
		c.fail(http.StatusNotFound, notKept(f.after))
		return
	}
	out := []ReplayedEvent{}
	for _, e := range picked {
		if c.r.Context().Err() != nil {
			return // the caller left: the rest is not sent
		}
		out = append(out, ReplayedEvent{EventID: e.EventID, EventType: e.EventType, State: s.deliverNow(p, hook.ID, e)})
	}
	c.json(http.StatusOK, map[string]any{"webhookId": hook.ID, "events": out})
}

// deliverNow delivers a kept event to one configuration and waits for the
// outcome (with the usual retries), so replayed events arrive in order.
func (s *Server) deliverNow(p *webhookPartner, hookID string, e keptEvent) string {
	s.mu.Lock()
	h := p.find(hookID)
	if h == nil {
		s.mu.Unlock()
		return webhookFailed
	}
	t := webhookTarget{partner: p, hookID: hookID, record: s.startDeliveryRecordLocked(p, h, e.EventID, e.EventType, e.Event)}
	s.mu.Unlock()
	s.webhookDeliver(t, e.Event)
	s.mu.Lock()
	defer s.mu.Unlock()
	return t.record.State
}
