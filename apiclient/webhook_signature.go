package apiclient

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Headers of a webhook delivery (docs/internals/sandbox.md).
const (
	// WebhookTimestampHeader carries the unix seconds the delivery was signed at.
	WebhookTimestampHeader = "X-Timestamp"
	// WebhookSignatureHeader carries hex HMAC-SHA256(apiKey, timestamp + "." + body).
	WebhookSignatureHeader = "X-Signature"
)

// WebhookTolerance is how far a delivery's timestamp may be from the
// receiver's clock before it is rejected (replay protection).
const WebhookTolerance = 300 * time.Second

// Why VerifyWebhookSignature refused a delivery; test with errors.Is.
var (
	// ErrWebhookTimestamp: the timestamp is missing, not unix seconds, or
	// more than WebhookTolerance away from now.
	ErrWebhookTimestamp = errors.New("webhook timestamp missing or outside the allowed window")
	// ErrWebhookSignature: the signature is missing, not hex, or does not
	// match the body under the key.
	ErrWebhookSignature = errors.New("webhook signature does not match")
)

// WebhookEvent is a delivery's body (docs/internals/sandbox.md). Unknown members are kept in
// Extra; EventObject is kept raw because its shape depends on the type.
type WebhookEvent struct {
	APIVersion    string          `json:"api_version"`
	EventID       string          `json:"event_id"`
	EventCategory string          `json:"event_category"`
	EventType     string          `json:"event_type"`
	UserID        string          `json:"user_id"`
	EventObjectID string          `json:"event_object_id"`
	EventObject   json.RawMessage `json:"event_object"`
	OccurredAt    string          `json:"occurred_at"`
	Extra         Extra           `json:"-"`
	// Raw is the record exactly as the gateway sent it (the inspector, Fields).
	Raw RawJSON `json:"-"`
}

// SignWebhook computes the signature of body at timestamp under apiKey, as
// the gateway does: hex HMAC-SHA256(apiKey, timestamp + "." + body).
func SignWebhook(apiKey, timestamp string, body []byte) string {
	m := hmac.New(sha256.New, []byte(apiKey))
	m.Write([]byte(timestamp))
	m.Write([]byte{'.'})
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// VerifyWebhookSignature checks a delivery before its body is trusted: the
// timestamp (X-Timestamp, unix seconds) must be within WebhookTolerance of
// now, and signature (X-Signature) must equal SignWebhook(apiKey, timestamp,
// body), compared in constant time. body must be the raw bytes received.
func VerifyWebhookSignature(apiKey string, timestamp, signature string, body []byte, now time.Time) error {
	if apiKey == "" || IsMaskedKey(apiKey) {
		return fmt.Errorf("%w: no usable key (a masked key cannot verify)", ErrWebhookSignature)
	}
	timestamp = strings.TrimSpace(timestamp)
	sec, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: %q is not unix seconds", ErrWebhookTimestamp, timestamp)
	}
	skew := now.Sub(time.Unix(sec, 0))
	if skew > WebhookTolerance || skew < -WebhookTolerance {
		return fmt.Errorf("%w: %s off", ErrWebhookTimestamp, skew.Round(time.Second))
	}
	got, err := hex.DecodeString(strings.TrimSpace(signature))
	if err != nil || len(got) != sha256.Size {
		return fmt.Errorf("%w: not a hex HMAC-SHA256", ErrWebhookSignature)
	}
	m := hmac.New(sha256.New, []byte(apiKey))
	m.Write([]byte(timestamp))
	m.Write([]byte{'.'})
	m.Write(body)
	if !hmac.Equal(got, m.Sum(nil)) {
		return ErrWebhookSignature
	}
	return nil
}
