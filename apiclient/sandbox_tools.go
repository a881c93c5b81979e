package apiclient

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// The sandbox gateway's event tools (sandbox-only endpoints; a real
// gateway has none). Each needs the client key and the secret key.

// SandboxOverride sets one field of a triggered event: Path is dotted into
// the delivered event (event_object.status), Value any JSON value.
type SandboxOverride struct {
	Path  string          `json:"path"`
	Value json.RawMessage `json:"value"`
}

// ParseSandboxOverride reads PATH=VALUE: VALUE is taken as JSON when it
// parses as JSON (FROZEN is a string, 12 a number, {"a":1} an object,
// "12" the string 12), else as a string.
func ParseSandboxOverride(s string) (SandboxOverride, error) {
	path, value, ok := strings.Cut(s, "=")
	path = strings.TrimSpace(path)
	if !ok || path == "" {
		return SandboxOverride{}, fmt.Errorf("override %q: write PATH=VALUE, e.g. event_object.status=FROZEN", s)
	}
	for _, part := range strings.Split(path, ".") {
		if part == "" {
			return SandboxOverride{}, fmt.Errorf("override %q: the path has an empty part", s)
		}
	}
	raw := json.RawMessage(strings.TrimSpace(value))
	if !json.Valid(raw) {
		raw, _ = json.Marshal(value)
	}
	return SandboxOverride{Path: path, Value: raw}, nil
}

// SandboxTriggerRequest is a test event to send: its type, the user it is
// about (id or username; "" = the tenant's first demo user), a fixture
// giving its fields (a JSON object; nil = none) and overrides applied
// after the fixture, in order.
type SandboxTriggerRequest struct {
	EventType string            `json:"event_type"`
	User      string            `json:"user,omitempty"`
	Fixture   json.RawMessage   `json:"fixture,omitempty"`
	Overrides []SandboxOverride `json:"overrides,omitempty"`
}

// SandboxTriggerEvent asks the sandbox gateway to send a signed test event
// shaped by in to every active configuration subscribed to its type.
func (c *Client) SandboxTriggerEvent(ctx context.Context, in SandboxTriggerRequest) (TriggeredEvent, error) {
	if err := ValidateWebhookEventType(in.EventType); err != nil {
		return TriggeredEvent{}, &Error{Op: "SandboxTrigger", Message: err.Error()}
	}
	if len(in.Fixture) > 0 {
		var object map[string]json.RawMessage
		if err := json.Unmarshal(in.Fixture, &object); err != nil {
			return TriggeredEvent{}, &Error{Op: "SandboxTrigger", Message: "the fixture must be a JSON object"}
		}
	}
	in.User = strings.TrimSpace(in.User)
	var out TriggeredEvent
	err := c.do(ctx, request{op: "SandboxTrigger", method: http.MethodPost, path: "/sandbox/trigger",
		body: in, family: familySecret, us: usHeader, out: &out, sandboxOnly: true})
	return out, err
}

// ResentEvent is the answer of SandboxResend.
type ResentEvent struct {
	EventID    string             `json:"eventId"`
	EventType  string             `json:"eventType"`
	Deliveries []TriggeredWebhook `json:"deliveries"`
}

// SandboxResend asks the sandbox gateway to deliver the event eventID
// again (the same event id and body, a fresh signature) to every
// configuration it was delivered to, or only to webhookID when given.
func (c *Client) SandboxResend(ctx context.Context, eventID, webhookID string) (ResentEvent, error) {
	eventID = strings.TrimSpace(eventID)
	if eventID == "" {
		return ResentEvent{}, &Error{Op: "SandboxResend", Message: "an event id is required"}
	}
	var out ResentEvent
	r := SandboxResendCall(eventID, webhookID).r
	r.out = &out
	err := c.do(ctx, r)
	return out, err
}

// SandboxResendCall declares the request SandboxResend sends.
func SandboxResendCall(eventID, webhookID string) Call {
	body := map[string]string{}
	if webhookID = strings.TrimSpace(webhookID); webhookID != "" {
		body["webhookId"] = webhookID
	}
	return Call{request{op: "SandboxResend", method: http.MethodPost, path: pathf("/sandbox/events/%s/resend", strings.TrimSpace(eventID)),
		body: body, family: familySecret, us: usHeader, sandboxOnly: true}}
}

// SandboxLogEntry is one request the sandbox answered. Dropped, when not
// zero, is instead how many entries a slow reader missed.
type SandboxLogEntry struct {
	Time       time.Time `json:"time"`
	Method     string    `json:"method"`
	Path       string    `json:"path"`
	Status     int       `json:"status"`
	DurationMs int64     `json:"durationMs"`
	Tenant     string    `json:"tenant"`
	Dropped    int64     `json:"dropped,omitempty"`
}

// errLogsEnded is the stream ending while the caller still listens.
var errLogsEnded = errors.New("the sandbox stopped")

// SandboxLogs follows the requests the sandbox gateway answers for this
// tenant (GET /sandbox/logs) and calls fn with each, until ctx ends (nil),
// fn fails (its error) or the sandbox stops (an error saying so). The
// per-request timeout does not apply: the stream lasts.
func (c *Client) SandboxLogs(ctx context.Context, fn func(SandboxLogEntry) error) error {
	r := request{op: "SandboxLogs", method: http.MethodGet, path: "/sandbox/logs", family: familySecret, us: usNone, sandboxOnly: true}
	if err := c.checkReadOnly(r); err != nil {
		return err
	}
	if err := c.checkSettings(r); err != nil {
		return err
	}
	if err := c.requireSandbox(ctx, r); err != nil {
		return err
	}
	req, err := c.build(ctx, r, "")
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return c.transportError(ctx, ctx, r.op, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		e := decodeError(r.op, resp, data, c.now())
		c.redact(e)
		return e
	}
	lines := bufio.NewScanner(resp.Body)
	for lines.Scan() {
		var entry SandboxLogEntry
		if err := json.Unmarshal(lines.Bytes(), &entry); err != nil {
			return &Error{Op: r.op, Message: "the sandbox sent a log line that is not JSON", Err: err}
		}
		if err := fn(entry); err != nil {
			return err
		}
	}
	if ctx.Err() != nil {
		return nil
	}
	return &Error{Op: r.op, Message: "the log stream ended: " + errLogsEnded.Error(), Err: errLogsEnded}
}
