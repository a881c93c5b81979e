package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Event types of webhook subscriptions. The interface names two and says the
// complete list is "not shown", so any well-formed name may be subscribed.
var (
	// WebhookEventTypes are the event types the interface names.
	WebhookEventTypes = []string{"kyc.status.changed", "card.activated"}
	// SandboxWebhookEventTypes are the types the sandbox gateway emits
	// beyond the interface's two (README "Webhook events" says when); a
	// real gateway may not know them.
	SandboxWebhookEventTypes = []string{"card.frozen", "card.unfrozen", "card.ordered", "order.status.changed",
		"consent.granted", "consent.revoked", "delegation.completed", "withdrawal.sent"}
	// SandboxEmittedEventTypes are all the types the sandbox gateway emits
	// by itself (README "Webhook events" says when), the interface's two
	// included: what an in-app listener subscribes to.
	SandboxEmittedEventTypes = []string{"card.frozen", "card.unfrozen", "card.ordered", "card.activated",
		"kyc.status.changed", "order.status.changed", "consent.granted", "consent.revoked",
		"delegation.completed", "withdrawal.sent"}
	// SandboxSimulatedEventTypes are the types the sandbox sends when card
	// activity is simulated (cardterm sandbox simulate, the Events screen's
	// s): what a listener on the sandbox subscribes to besides the others.
	SandboxSimulatedEventTypes = []string{"transaction.authorized", "transaction.declined", "transaction.cleared",
		"transaction.refunded", "transaction.reversed"}
)

// WebhookNameMax is the interface's limit on a webhook name.
const WebhookNameMax = 255

// WebhookLimit is how many configurations a partner may have (the gateway's
// public reference; the interface does not say).
const WebhookLimit = 5

// Webhook is a webhook configuration (GET /v1/webhooks). APIKey is masked
// except in the answers of CreateWebhook and RotateWebhookKey.
type Webhook struct {
	ID         string                     `json:"id"`
	Tenant     string                     `json:"tenant"`
	Name       string                     `json:"name"`
	URL        string                     `json:"url"`
	APIKey     string                     `json:"apiKey"`
	EventTypes []string                   `json:"eventTypes"`
	IsActive   bool                       `json:"isActive"`
	Metadata   map[string]json.RawMessage `json:"metadata"`
	CreatedAt  string                     `json:"createdAt"`
	UpdatedAt  string                     `json:"updatedAt"`
	// Extra holds fields the interface does not show.
	Extra Extra `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// WebhookCreate is the body of POST /v1/webhooks.
type WebhookCreate struct {
	Name       string                     `json:"name"`
	URL        string                     `json:"url"`
	EventTypes []string                   `json:"event_types"`
	IsActive   bool                       `json:"is_active"`
	Metadata   map[string]json.RawMessage `json:"metadata,omitzero"`
}

// WebhookUpdate is the body of PUT /v1/webhooks/{id}: only the fields that
// change are set, and only they are sent. A nil EventTypes or Metadata is
// left unchanged; a non-nil one replaces the stored value.
type WebhookUpdate struct {
	Name       *string                    `json:"name,omitempty"`
	URL        *string                    `json:"url,omitempty"`
	EventTypes []string                   `json:"event_types,omitzero"`
	IsActive   *bool                      `json:"is_active,omitempty"`
	Metadata   map[string]json.RawMessage `json:"metadata,omitzero"`
}

// Empty reports whether u changes nothing.
func (u WebhookUpdate) Empty() bool {
	return u.Name == nil && u.URL == nil && u.EventTypes == nil && u.IsActive == nil && u.Metadata == nil
}

// Webhooks lists the partner's webhook configurations (keys masked).
func (c *Client) Webhooks(ctx context.Context) ([]Webhook, error) {
	return answer[[]Webhook](ctx, c, request{op: "Webhooks", method: http.MethodGet, path: "/v1/webhooks",
		family: familyWebhook, us: usNone})
}

// Webhook reads one configuration. Its answer shape is not shown, so both
// the configuration and a {success, data} envelope are read.
func (c *Client) Webhook(ctx context.Context, id string) (Webhook, error) {
	if strings.TrimSpace(id) == "" {
		return Webhook{}, &Error{Op: "Webhook", Message: "a webhook id is required"}
	}
	var raw json.RawMessage
	err := c.do(ctx, request{op: "Webhook", method: http.MethodGet, path: pathf("/v1/webhooks/%s", id),
		family: familyWebhook, us: usNone, out: &raw})
	if err != nil {
		return Webhook{}, err
	}
	return unwrapWebhook("Webhook", raw)
}

// unwrapWebhook reads a configuration, bare or inside {success, data}.
func unwrapWebhook(op string, raw json.RawMessage) (Webhook, error) {
	var env struct {
		Success *bool           `json:"success"`
		Data    json.RawMessage `json:"data"`
	}
	body := raw
	if json.Unmarshal(raw, &env) == nil && len(bytes.TrimSpace(env.Data)) > 0 && bytes.TrimSpace(env.Data)[0] == '{' {
		if env.Success != nil && !*env.Success {
			return Webhook{}, &Error{Op: op, Message: "gateway reported success: false"}
		}
		body = env.Data
	}
	var w Webhook
	if err := json.Unmarshal(body, &w); err != nil {
		return Webhook{}, &Error{Op: op, Message: "gateway answered with a webhook this client cannot read", Err: err}
	}
	return w, nil
}

// CreateWebhook adds a configuration. The answer carries the full signing
// key, the only time it is shown: keep it, never log it.
func (c *Client) CreateWebhook(ctx context.Context, in WebhookCreate) (Webhook, error) {
	if fe := ValidateWebhookCreate(in); len(fe) > 0 {
		return Webhook{}, &Error{Op: "CreateWebhook", Message: fe[0].Message, Fields: fe}
	}
	if err := c.plainHTTPForTheSandboxOnly(ctx, "CreateWebhook", in.URL); err != nil {
		return Webhook{}, err
	}
	return c.webhookMutation(ctx, CreateWebhookCall(in))
}

// CreateWebhookCall declares the request CreateWebhook sends.
func CreateWebhookCall(in WebhookCreate) Call {
	return Call{request{op: "CreateWebhook", method: http.MethodPost, path: "/v1/webhooks", body: in, family: familyWebhook, us: usNone}}
}

// UpdateWebhook changes the fields set in u and returns the stored
// configuration (key masked). The signing key changes only through
// RotateWebhookKey.
func (c *Client) UpdateWebhook(ctx context.Context, id string, u WebhookUpdate) (Webhook, error) {
	if strings.TrimSpace(id) == "" {
		return Webhook{}, &Error{Op: "UpdateWebhook", Message: "a webhook id is required"}
	}
	if u.Empty() {
		return Webhook{}, &Error{Op: "UpdateWebhook", Message: "nothing to change"}
	}
	if fe := ValidateWebhookUpdate(u); len(fe) > 0 {
		return Webhook{}, &Error{Op: "UpdateWebhook", Message: fe[0].Message, Fields: fe}
	}
	if u.URL != nil {
		if err := c.plainHTTPForTheSandboxOnly(ctx, "UpdateWebhook", *u.URL); err != nil {
			return Webhook{}, err
		}
	}
	return c.webhookMutation(ctx, UpdateWebhookCall(id, u))
}

// UpdateWebhookCall declares the request UpdateWebhook sends.
func UpdateWebhookCall(id string, u WebhookUpdate) Call {
	return Call{request{op: "UpdateWebhook", method: http.MethodPut, path: pathf("/v1/webhooks/%s", id), body: u, family: familyWebhook, us: usNone}}
}

// DeleteWebhook removes a configuration; deliveries to it stop.
func (c *Client) DeleteWebhook(ctx context.Context, id string) error {
	if strings.TrimSpace(id) == "" {
		return &Error{Op: "DeleteWebhook", Message: "a webhook id is required"}
	}
	return c.doSuccess(ctx, DeleteWebhookCall(id).r)
}

// DeleteWebhookCall declares the request DeleteWebhook sends.
func DeleteWebhookCall(id string) Call {
	return Call{request{op: "DeleteWebhook", method: http.MethodDelete, path: pathf("/v1/webhooks/%s", id), family: familyWebhook, us: usNone}}
}

// RotateWebhookKeyCall declares the request RotateWebhookKey sends.
func RotateWebhookKeyCall(id string) Call {
	return Call{request{op: "RotateWebhookKey", method: http.MethodPost,
		path: pathf("/v1/webhooks/%s/rotate-key", id), family: familyWebhook, us: usNone}}
}

// RotateWebhookKey replaces the signing key and returns the new one, shown
// only this once: the caller shows it to the user and forgets it.
func (c *Client) RotateWebhookKey(ctx context.Context, id string) (string, error) {
	if strings.TrimSpace(id) == "" {
		return "", &Error{Op: "RotateWebhookKey", Message: "a webhook id is required"}
	}
	var raw json.RawMessage
	r := RotateWebhookKeyCall(id).r
	r.out = &raw
	err := c.do(ctx, r)
	if err != nil {
		return "", err
	}
	// The shape is not shown: {success, data: {apiKey}} or {apiKey}.
	var flat struct {
		APIKey string `json:"apiKey"`
		Key    string `json:"api_key"`
	}
	_ = json.Unmarshal(raw, &flat)
	key := flat.APIKey
	if key == "" {
		key = flat.Key
	}
	if key == "" {
		if w, err := unwrapWebhook("RotateWebhookKey", raw); err == nil {
			key = w.APIKey
		}
	}
	if key == "" || IsMaskedKey(key) {
		return "", &Error{Op: "RotateWebhookKey", Message: "the gateway rotated the key but did not return it",
			Err: &MaskedKeyError{Answered: key}}
	}
	return key, nil
}

// MaskedKeyError is a rotation whose answer carried the key masked (or
// none): the key changed, but this answer cannot be used to verify.
type MaskedKeyError struct {
	Answered string // the key as the gateway sent it, masked; "" when absent
}

func (e *MaskedKeyError) Error() string { return "the gateway returned the signing key masked" }

// webhookMutation sends body and reads the {success, data} answer.
func (c *Client) webhookMutation(ctx context.Context, call Call) (Webhook, error) {
	var raw json.RawMessage
	r := call.r
	r.out = &raw
	if err := c.do(ctx, r); err != nil {
		return Webhook{}, err
	}
	return unwrapWebhook(r.op, raw)
}

// IsMaskedKey reports whether a key as answered is masked (so it cannot be
// used to verify signatures).
func IsMaskedKey(key string) bool {
	return key == "" || strings.ContainsAny(key, "*•…") || strings.Contains(key, "...")
}

// MinWebhookKeyLen is the shortest signing key taken as whole: the
// gateway's keys are a prefix and 64 hex digits, so anything much shorter
// is a masked or cut form of one.
const MinWebhookKeyLen = 24

// WebhookKeyWhole reports whether a key from a create or rotate answer is
// the key itself, so it may be shown once, copied and used to verify: not
// masked (asterisks, ellipsis) and not shorter than a real key.
func WebhookKeyWhole(key string) bool {
	key = strings.TrimSpace(key)
	return !IsMaskedKey(key) && len(key) >= MinWebhookKeyLen
}

var webhookEventRE = lazyRegexp{pattern: `^[a-z0-9_]+(\.[a-z0-9_]+)+$`}

// ValidateWebhookEventType checks the shape of an event type name
// (lower-case dotted words such as card.activated).
func ValidateWebhookEventType(t string) error {
	if !webhookEventRE.get().MatchString(t) {
		return fmt.Errorf("invalid event type %q: use dotted lower-case names such as card.activated", t)
	}
	return nil
}

// ValidateWebhookURL checks that u is an absolute HTTPS URL, as the
// interface requires. Plain http is let through for a loopback host only
// (127.0.0.1, ::1, localhost): the sandbox gateway delivers to a receiver
// on this machine such as `cardterm listen`; a real gateway refuses it.
func ValidateWebhookURL(u string) error {
	p, err := url.Parse(strings.TrimSpace(u))
	switch {
	case strings.TrimSpace(u) == "":
		return fmt.Errorf("a url is required")
	case err != nil || p.Host == "" || p.Hostname() == "":
		return fmt.Errorf("not a valid URL (https://host/path)")
	case p.Scheme == "http" && IsLoopbackHost(p.Hostname()) && p.User == nil:
		return nil
	case p.Scheme != "https":
		return fmt.Errorf("the url must use HTTPS")
	case p.User != nil:
		return fmt.Errorf("the url must not contain credentials")
	}
	return nil
}

// validateWebhookName checks a name: not empty, at most WebhookNameMax.
func validateWebhookName(n string) error {
	switch {
	case strings.TrimSpace(n) == "":
		return fmt.Errorf("a name is required")
	case utf8.RuneCountInString(strings.TrimSpace(n)) > WebhookNameMax:
		return fmt.Errorf("at most %d characters (this one has %d)", WebhookNameMax, utf8.RuneCountInString(strings.TrimSpace(n)))
	}
	return nil
}

func validateEventTypes(ts []string) []FieldError {
	if len(ts) == 0 {
		return []FieldError{{Field: "event_types", Message: "at least one event type is required"}}
	}
	for _, t := range ts {
		if err := ValidateWebhookEventType(t); err != nil {
			return []FieldError{{Field: "event_types", Message: err.Error()}}
		}
	}
	return nil
}

// plainHTTPForTheSandboxOnly refuses a plain-http (loopback) webhook url
// for a gateway that did not announce itself as the sandbox: the interface
// wants HTTPS, and only the sandbox delivers to this machine.
func (c *Client) plainHTTPForTheSandboxOnly(ctx context.Context, op, raw string) error {
	p, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || p.Scheme != "http" || c.AnnouncedSandbox(ctx) {
		return nil
	}
	message := "the url must use HTTPS: plain http to this machine is for the cardterm sandbox only, and this gateway did not announce itself as one"
	return &Error{Op: op, Message: message, Fields: []FieldError{{Field: "url", Message: message}}, Err: errNotSandbox}
}

// ValidateWebhookCreate lists what is wrong with a create body, by wire
// field name, before it is sent.
func ValidateWebhookCreate(in WebhookCreate) []FieldError {
	var out []FieldError
	if err := validateWebhookName(in.Name); err != nil {
		out = append(out, FieldError{Field: "name", Message: err.Error()})
	}
	if err := ValidateWebhookURL(in.URL); err != nil {
		out = append(out, FieldError{Field: "url", Message: err.Error()})
	}
	return append(out, validateEventTypes(in.EventTypes)...)
}

// ValidateWebhookUpdate lists what is wrong with the fields an update sets.
func ValidateWebhookUpdate(u WebhookUpdate) []FieldError {
	var out []FieldError
	if u.Name != nil {
		if err := validateWebhookName(*u.Name); err != nil {
			out = append(out, FieldError{Field: "name", Message: err.Error()})
		}
	}
	if u.URL != nil {
		if err := ValidateWebhookURL(*u.URL); err != nil {
			out = append(out, FieldError{Field: "url", Message: err.Error()})
		}
	}
	if u.EventTypes != nil {
		out = append(out, validateEventTypes(u.EventTypes)...)
	}
	return out
}

// IsLoopbackHost reports whether host (without port) names this machine:
// localhost, 127.0.0.0/8 or ::1.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
