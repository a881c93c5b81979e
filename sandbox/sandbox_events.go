package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Event tools (SANDBOX-ONLY, like the rest of sandbox_tools.go):
//
//	POST /sandbox/trigger {event_type, user, fixture, overrides}
//	  fixture: an object giving the event's fields (event_object,
//	  event_object_id, user_id, occurred_at, api_version, event_category),
//	  each replacing the generated one; overrides: [{path, value}], each a
//	  dotted path into the delivered event (event_object.status, or
//	  event_object.items.0.name into an array) set to a JSON value, applied
//	  in order after the fixture. event_id is the sandbox's and event_type
//	  the request's: neither can be overridden.
//	POST /sandbox/events/{eventId}/resend {webhookId}
//	  sends the very same event (same event_id and body, a fresh timestamp
//	  and signature) again to every configuration it was delivered to, or
//	  only to webhookId; -> 200 {eventId, eventType, deliveries:[{id, name, url}]},
//	  404 when no configuration of the partner keeps a delivery of it (each
//	  keeps its latest 50).

// eventOverride sets one field of a triggered event.
type eventOverride struct {
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value"`
}

// eventShape is what a trigger request changes in the generated event.
type eventShape struct {
	Fixture   json.RawMessage
	Overrides []eventOverride
}

// errEventShape marks a fixture or override the sandbox cannot apply (400).
var errEventShape = errors.New("cannot shape the event")

// shapeProblem is an errEventShape with its reason.
func shapeProblem(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errEventShape, fmt.Sprintf(format, args...))
}

// apply puts the fixture's fields and then the overrides into ev.
func (sh eventShape) apply(ev *webhookEvent) error {
	if f := bytes.TrimSpace(sh.Fixture); len(f) > 0 && !bytes.Equal(f, []byte("null")) {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(f, &fields); err != nil {
			return shapeProblem("the fixture must be a JSON object")
		}
		if t, ok := fields["event_type"]; ok && string(bytes.Trim(t, `"`)) != ev.EventType {
			return shapeProblem("the fixture's event_type %s differs from the event type triggered (%s)", t, ev.EventType)
		}
		if _, ok := fields["event_id"]; ok {
			return shapeProblem("the fixture cannot set event_id: the sandbox gives every event its own")
		}
		d := json.NewDecoder(bytes.NewReader(f))
		d.DisallowUnknownFields()
		if err := d.Decode(ev); err != nil {
			return shapeProblem("fixture: %s", strings.TrimPrefix(err.Error(), "json: "))
		}
	}
	for i, o := range sh.Overrides {
		if err := ev.override(o.Path, o.Value); err != nil {
			return shapeProblem("overrides[%d] (%s): %v", i, o.Path, err)
		}
	}
	return nil
}

// override sets the field at a dotted path.
func (ev *webhookEvent) override(path string, raw json.RawMessage) error {
	var value any
	if err := json.Unmarshal(raw, &value); err != nil {
		return errors.New("the value is not JSON")
	}
	head, rest, nested := strings.Cut(path, ".")
	scalars := map[string]*string{"api_version": &ev.APIVersion, "event_category": &ev.EventCategory,
		"user_id": &ev.UserID, "event_object_id": &ev.EventObjectID, "occurred_at": &ev.OccurredAt}
	switch field, ok := scalars[head]; {
	case head == "event_object" && !nested:
		ev.EventObject = value
	case head == "event_object":
		object, err := plainJSON(ev.EventObject)
		if err != nil {
			return err
		}
		if ev.EventObject, err = setAt(object, strings.Split(rest, "."), value); err != nil {
			return err
		}
	case head == "event_id":
		return errors.New("the sandbox gives every event its own event_id")
	case head == "event_type":
		return errors.New("the event type is the one triggered")
	case !ok:
		return fmt.Errorf("no field %q in an event (api_version, event_category, user_id, event_object_id, event_object, occurred_at)", head)
	case nested:
		return fmt.Errorf("%s is a string, not an object", head)
	default:
		text, isText := value.(string)
		if !isText {
			return fmt.Errorf("%s must be a string", head)
		}
		*field = text
	}
	return nil
}

// plainJSON turns v into maps, slices and scalars (its JSON form).
func plainJSON(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(b, &out)
	return out, err
}

// setAt sets value at path inside container (objects are created on the
// way; array indexes must exist) and returns the container.
func setAt(container any, path []string, value any) (any, error) {
	key := path[0]
	if key == "" {
		return nil, errors.New("empty path segment")
	}
	switch c := container.(type) {
	case nil:
		return setAt(map[string]any{}, path, value)
	case map[string]any:
		if len(path) == 1 {
			c[key] = value
			return c, nil
		}
		child, err := setAt(c[key], path[1:], value)
		c[key] = child
		return c, err
	case []any:
		i, err := strconv.Atoi(key)
		if err != nil || i < 0 || i >= len(c) {
			return c, fmt.Errorf("%q is not an index of an array of %d", key, len(c))
		}
		if len(path) == 1 {
			c[i] = value
			return c, nil
		}
		c[i], err = setAt(c[i], path[1:], value)
		return c, err
	}
	return container, fmt.Errorf("%q is inside a %T, not an object", key, container)
}

// triggerShapedLocked emits a test event shaped by sh. Call with s.mu held.
func (s *Server) triggerShapedLocked(be *backend, u *userRecord, eventType string, sh eventShape) (TriggerResult, error) {
	id, object := sampleObject(u, eventType, s.now())
	ev := s.newEventLocked(be, u.ID, eventType, id, object)
	if err := sh.apply(&ev); err != nil {
		return TriggerResult{}, err
	}
	to := s.sendEventLocked(be, ev)
	if to == nil {
		to = []webhookSubscriber{}
	}
	return TriggerResult{EventID: ev.EventID, EventType: eventType, UserID: ev.UserID, Deliveries: to}, nil
}

// ResendResult is what a resend started.
type ResendResult struct {
	EventID    string              `json:"eventId"`
	EventType  string              `json:"eventType"`
	Deliveries []webhookSubscriber `json:"deliveries"`
}

// resendLocked sends the kept event eventID again to each configuration
// of p that has a delivery of it (only hookID when given). ok is false
// when none has. Call with s.mu held.
func (s *Server) resendLocked(p *webhookPartner, eventID, hookID string) (ResendResult, bool) {
	out := ResendResult{EventID: eventID, Deliveries: []webhookSubscriber{}}
	for _, h := range p.hooks {
		if hookID != "" && h.ID != hookID {
			continue
		}
		var kept *webhookDeliveryRecord
		for _, d := range slices.Backward(h.deliveries) {
			if d.EventID == eventID && len(d.Event) > 0 {
				kept = d
				break
			}
		}
		if kept == nil {
			continue
		}
		out.EventType = kept.EventType
		out.Deliveries = append(out.Deliveries, s.startDeliveryLocked(p, h, kept.EventID, kept.EventType, kept.Event))
	}
	return out, len(out.Deliveries) > 0
}

// resendRoute: POST /sandbox/events/{eventId}/resend.
func (s *Server) resendRoute(c *call) {
	var in struct {
		WebhookID string `json:"webhookId"`
	}
	if !c.decode(&in) {
		return
	}
	eventID := c.r.PathValue("eventId")
	c.answerFound("No webhook keeps a delivery of event "+eventID+" (each keeps its latest 50)", func() any {
		if out, ok := s.resendLocked(s.webhookPartnerOf(c.be), eventID, strings.TrimSpace(in.WebhookID)); ok {
			return out
		}
		return nil
	})
}

// triggerRoute: POST /sandbox/trigger.
func (s *Server) triggerRoute(c *call) {
	var in struct {
		EventType  string          `json:"event_type"`
		EventType2 string          `json:"eventType"`
		User       string          `json:"user"`
		Fixture    json.RawMessage `json:"fixture"`
		Overrides  []eventOverride `json:"overrides"`
	}
	if !c.decode(&in) {
		return
	}
	eventType := strings.TrimSpace(in.EventType + in.EventType2)
	if !webhookEventRE.get().MatchString(eventType) {
		c.fail(http.StatusBadRequest, fmt.Sprintf("Invalid event type %q: use dotted lower-case names such as card.frozen", eventType))
		return
	}
	s.mu.Lock()
	u := userOf(c.be, strings.TrimSpace(in.User))
	var out TriggerResult
	var err error
	if u != nil {
		out, err = s.triggerShapedLocked(c.be, u, eventType, eventShape{Fixture: in.Fixture, Overrides: in.Overrides})
	}
	s.mu.Unlock()
	switch {
	case u == nil:
		c.fail(http.StatusNotFound, "User not found in this tenant and region")
	case err != nil:
		c.fail(http.StatusBadRequest, strings.TrimPrefix(err.Error(), errEventShape.Error()+": "))
	default:
		c.json(http.StatusOK, out)
	}
}
