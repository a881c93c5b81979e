package apiclient

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// The sandbox gateway's event history (sandbox-only): each partner's
// latest events, whoever they went to.

// SandboxEvent is one event of the history, with its body as sent.
type SandboxEvent struct {
	EventID    string          `json:"eventId"`
	EventType  string          `json:"eventType"`
	UserID     string          `json:"userId"`
	OccurredAt time.Time       `json:"occurredAt"`
	Event      json.RawMessage `json:"event"`
}

// SandboxEventQuery picks events: Type an event type or CATEGORY.*, User
// an id or username, Since a duration back (10m) or an RFC 3339 time,
// After an event id, Limit the newest that many (0 = all kept).
type SandboxEventQuery struct {
	Type, User, Since, After string
	Limit                    int
}

// SandboxEvents lists the history, oldest first.
func (c *Client) SandboxEvents(ctx context.Context, q SandboxEventQuery) ([]SandboxEvent, error) {
	query := url.Values{}
	for name, value := range map[string]string{"type": q.Type, "user": q.User, "since": q.Since, "after": q.After} {
		if value != "" {
			query.Set(name, value)
		}
	}
	if q.Limit > 0 {
		query.Set("limit", strconv.Itoa(q.Limit))
	}
	var out struct {
		Events []SandboxEvent `json:"events"`
	}
	err := c.do(ctx, request{op: "SandboxEvents", method: http.MethodGet, path: "/sandbox/events", query: query,
		family: familySecret, us: usNone, out: &out, sandboxOnly: true})
	return out.Events, err
}

// SandboxReplayedEvent is one event a replay delivered again.
type SandboxReplayedEvent struct {
	EventID   string `json:"eventId"`
	EventType string `json:"eventType"`
	State     string `json:"state"`
}

// SandboxReplay delivers the events the query picks (Since or After
// required) that webhookID subscribes to, one after the other in order,
// and returns when they are done.
func (c *Client) SandboxReplay(ctx context.Context, webhookID string, q SandboxEventQuery) ([]SandboxReplayedEvent, error) {
	body := map[string]string{"webhookId": webhookID, "type": q.Type, "user": q.User, "since": q.Since, "after": q.After}
	var out struct {
		Events []SandboxReplayedEvent `json:"events"`
	}
	err := c.do(ctx, request{op: "SandboxReplay", method: http.MethodPost, path: "/sandbox/events/replay", body: body,
		family: familySecret, us: usNone, out: &out, sandboxOnly: true})
	return out.Events, err
}
