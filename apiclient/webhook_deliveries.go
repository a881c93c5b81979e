package apiclient

import (
	"context"
	"net/http"
	"strings"
)

// Delivery logs and test events. The interface shows neither; the sandbox
// gateway offers both (GET /v1/webhooks/{id}/deliveries, POST
// /sandbox/trigger), so the Webhooks screen and `cardterm sandbox trigger`
// can show what each configuration received. A real gateway answers 404.

// WebhookDelivery is one event sent to a configuration, with every attempt.
type WebhookDelivery struct {
	EventID   string           `json:"eventId"`
	EventType string           `json:"eventType"`
	CreatedAt string           `json:"createdAt"`
	State     string           `json:"state"` // pending, retrying, delivered or failed
	Attempts  []WebhookAttempt `json:"attempts"`
	Extra     Extra            `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// WebhookAttempt is one try at sending an event.
type WebhookAttempt struct {
	Attempt       int    `json:"attempt"` // 1, 2, ...
	At            string `json:"at"`
	Status        int    `json:"status,omitempty"` // the receiver's HTTP status; 0 when none came
	Error         string `json:"error,omitempty"`  // why it failed
	DurationMs    int64  `json:"durationMs"`
	NextAttemptAt string `json:"nextAttemptAt,omitempty"` // when the retry follows
}

// WebhookDeliveries lists the latest events sent to configuration id,
// newest first, each with its attempts (sandbox gateway only).
func (c *Client) WebhookDeliveries(ctx context.Context, id string) ([]WebhookDelivery, error) {
	if strings.TrimSpace(id) == "" {
		return nil, &Error{Op: "WebhookDeliveries", Message: "a webhook id is required"}
	}
	var out struct {
		Deliveries []WebhookDelivery `json:"deliveries"`
	}
	err := c.do(ctx, request{op: "WebhookDeliveries", method: http.MethodGet, path: pathf("/v1/webhooks/%s/deliveries", id),
		family: familyWebhook, us: usNone, out: &out, sandboxOnly: true})
	if err != nil {
		return nil, err
	}
	if out.Deliveries == nil {
		out.Deliveries = []WebhookDelivery{}
	}
	return out.Deliveries, nil
}

// TriggeredEvent is the answer of SandboxTrigger.
type TriggeredEvent struct {
	EventID    string             `json:"eventId"`
	EventType  string             `json:"eventType"`
	UserID     string             `json:"userId"`
	Deliveries []TriggeredWebhook `json:"deliveries"`
}

// TriggeredWebhook is a configuration a test event is being sent to.
type TriggeredWebhook struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	URL  string `json:"url"`
}

// SandboxTrigger asks the sandbox gateway to send a signed test event of
// eventType about user (an id or username; "" = the tenant's first demo
// user) to every active configuration subscribed to it. It needs the
// client key and the secret key.
func (c *Client) SandboxTrigger(ctx context.Context, eventType, user string) (TriggeredEvent, error) {
	if err := ValidateWebhookEventType(eventType); err != nil {
		return TriggeredEvent{}, &Error{Op: "SandboxTrigger", Message: err.Error()}
	}
	var out TriggeredEvent
	body := map[string]string{"event_type": eventType}
	if user = strings.TrimSpace(user); user != "" {
		body["user"] = user
	}
	err := c.do(ctx, request{op: "SandboxTrigger", method: http.MethodPost, path: "/sandbox/trigger",
		body: body, family: familySecret, us: usHeader, out: &out, sandboxOnly: true})
	return out, err
}
