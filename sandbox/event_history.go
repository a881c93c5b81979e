package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Event history (SANDBOX-ONLY): each partner keeps its latest
// eventHistorySize events, whoever they were sent to (none, when no
// webhook was subscribed), so a listener that was stopped can catch up
// and a partner can see what happened. With a data directory the history
// survives a restart (each event a record of its own: persist.go).
//
//	GET /sandbox/events?type=card.*&user=alice@demo.test&since=10m&after=EVENT_ID&limit=100
//	  -> 200 {events: [{eventId, eventType, userId, occurredAt, event}], total}, oldest first;
//	  type is an event type or CATEGORY.*; since a duration back from the
//	  sandbox's time or an RFC 3339 time; after an event id (those after it)
//	POST /sandbox/events/replay {webhookId, since, after, type}
//	  delivers the matching events the webhook is subscribed to, one after
//	  the other in the order they happened (each a fresh signature), and
//	  answers when they are done -> 200 {webhookId, events: [{eventId, eventType, state}]}

// eventHistorySize bounds each partner's history.
const eventHistorySize = 250

// keptEvent is one event of the history, as it was sent.
type keptEvent struct {
	EventID    string          `json:"eventId"`
	EventType  string          `json:"eventType"`
	UserID     string          `json:"userId"`
	OccurredAt time.Time       `json:"occurredAt"`
	Event      json.RawMessage `json:"event"`
	seq        int             // its record's number in a data directory (persist.go)
}

// addToHistoryLocked adds ev (sent as body) to p's history. Call with s.mu held.
func (s *Server) addToHistoryLocked(p *webhookPartner, ev webhookEvent, body []byte) {
	p.eventSeq++
	added := keptEvent{EventID: ev.EventID, EventType: ev.EventType, UserID: ev.UserID,
		OccurredAt: s.now().UTC(), Event: body, seq: p.eventSeq}
	var removed []keptEvent
	p.events, removed = keepNewest(append(p.events, added), eventHistorySize)
	s.keepEventsLocked(p, added, removed)
}

// keepNewest keeps the last size items of list and returns those it
// dropped, for the data directory to delete.
func keepNewest[T any](list []T, size int) (kept, dropped []T) {
	over := len(list) - size
	if over <= 0 {
		return list, nil
	}
	dropped = slices.Clone(list[:over]) // before Delete moves the rest over them
	return slices.Delete(list, 0, over), dropped
}

// checkKeptEvents checks a stored history.
func checkKeptEvents(at string, events []keptEvent) error {
	if len(events) > eventHistorySize {
		return fixtureProblem(at, "at most %d events are kept", eventHistorySize)
	}
	for i, e := range events {
		if e.EventID == "" || !webhookEventRE.get().MatchString(e.EventType) || !json.Valid(e.Event) {
			return fixtureProblem(fmt.Sprintf("%s[%d]", at, i), "an event needs its id, a dotted lower-case type and its JSON body")
		}
	}
	return nil
}

// eventFilter picks events of the history.
type eventFilter struct {
	eventType string // a type, or CATEGORY.*
	userID    string
	since     time.Time
	after     string // an event id
}

// matchesType reports whether eventType matches pattern (a type, or a
// shell-style pattern such as card.* or *).
func matchesType(pattern, eventType string) bool {
	if pattern == "" || pattern == eventType {
		return true
	}
	ok, err := path.Match(pattern, eventType)
	return err == nil && ok
}

// pick is the events f lets through, oldest first; found is false when
// the event f.after names is not (or no longer) kept.
func (f eventFilter) pick(events []keptEvent) (picked []keptEvent, found bool) {
	start := 0
	if f.after != "" {
		i := slices.IndexFunc(events, func(e keptEvent) bool { return e.EventID == f.after })
		if i < 0 {
			return nil, false
		}
		start = i + 1
	}
	for _, e := range events[start:] {
		if matchesType(f.eventType, e.EventType) && (f.userID == "" || e.UserID == f.userID) && !e.OccurredAt.Before(f.since) {
			picked = append(picked, e)
		}
	}
	return picked, true
}

// notKept is the 404 message for an after id the history does not hold.
func notKept(eventID string) string {
	return fmt.Sprintf("Event %s is not in the history (each partner keeps its latest %d events)", eventID, eventHistorySize)
}

// parseSince reads since: a duration back from now (10m, 2h, 3d) or an
// RFC 3339 time; "" is the beginning.
func parseSince(text string, now time.Time) (time.Time, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return time.Time{}, nil
	}
	if at, err := time.Parse(time.RFC3339, text); err == nil {
		return at, nil
	}
	back, err := ParseClockStep(text)
	if err != nil {
		return time.Time{}, fmt.Errorf("since %q must be a duration back from now (10m, 2h, 3d) or an RFC 3339 time", text)
	}
	return now.Add(-back), nil
}

// eventFilterOf reads the filter of a request; user is an id or username
// of be. A problem is a message for a 400 (or a 404 for the user).
func (s *Server) eventFilterOf(be *backend, eventType, user, since, after string) (eventFilter, int, string) {
	f := eventFilter{eventType: strings.TrimSpace(eventType), after: strings.TrimSpace(after)}
	if _, err := path.Match(f.eventType, ""); err != nil {
		return f, http.StatusBadRequest, fmt.Sprintf("type %q is not an event type or a pattern such as card.*", f.eventType)
	}
	var err error
	if f.since, err = parseSince(since, s.now()); err != nil {
		return f, http.StatusBadRequest, err.Error()
	}
	if user = strings.TrimSpace(user); user != "" {
		u := userOf(be, user)
		if u == nil {
			return f, http.StatusNotFound, "User not found in this tenant and region"
		}
		f.userID = u.ID
	}
	return f, 0, ""
}

// eventHistoryRoutes registers the history's endpoints (called from routes).
func (s *Server) eventHistoryRoutes() {
	spec := routeSpec{fam: familyMessage, ident: identClientKey, secret: true}
	s.handle("GET /sandbox/events", spec, s.eventsRoute)
	s.handle("POST /sandbox/events/replay", spec, s.replayRoute)
}

// eventsRoute: GET /sandbox/events.
func (s *Server) eventsRoute(c *call) {
	q := c.r.URL.Query()
	f, status, problem := s.eventFilterOf(c.be, q.Get("type"), q.Get("user"), q.Get("since"), q.Get("after"))
	limit := eventHistorySize
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > eventHistorySize {
			status, problem = http.StatusBadRequest, fmt.Sprintf("limit must be a whole number from 1 to %d", eventHistorySize)
		}
		limit = n
	}
	if problem != "" {
		c.fail(status, problem)
		return
	}
	s.mu.Lock()
	picked, found := f.pick(s.webhookPartnerOf(c.be).events)
	total := len(picked)
	picked = slices.Clone(picked[max(0, total-limit):]) // the newest limit, oldest first
	s.mu.Unlock()
	if !found {
		c.fail(http.StatusNotFound, notKept(f.after))
		return
	}
	if picked == nil {
		picked = []keptEvent{}
	}
	c.json(http.StatusOK, map[string]any{"events": picked, "total": total})
}
