// Package webhookreceiver receives the gateway's webhook deliveries: it
// checks each one's X-Timestamp and X-Signature against the signing key,
// rejects stale and replayed deliveries, can forward the verified ones to a
// partner's own server, and hands every delivery, verified or rejected, to
// its subscribers (the `cardterm listen` command and the in-app Events
// screen).
package webhookreceiver

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/humantime"
)

// DefaultTolerance is how far a delivery's timestamp may be from the
// receiver's clock: the gateway signs with its own clock and rejects a
// delivery more than 300 s off, so receivers do the same.
const DefaultTolerance = apiclient.WebhookTolerance

// Reason says why a delivery was rejected.
type Reason string

// The reasons a delivery is rejected.
const (
	// ReasonMalformed: a header is missing or not in its format
	// (X-Timestamp unix seconds, X-Signature 64 hex digits), or the
	// request is not a delivery at all (too large a body).
	ReasonMalformed Reason = "malformed"
	// ReasonSignature: the signature does not match the body under the
	// key: the key is not this webhook's, or the body was changed.
	ReasonSignature Reason = "signature"
	// ReasonTimestamp: the timestamp is further from now than the
	// tolerance (an old capture, or a clock far off).
	ReasonTimestamp Reason = "timestamp"
	// ReasonReplay: a delivery with this signature was already accepted
	// within the window.
	ReasonReplay Reason = "replay"
)

// Summary is the reason in a few words, for a list row.
func (r Reason) Summary() string {
	switch r {
	case ReasonMalformed:
		return "malformed header"
	case ReasonSignature:
		return "wrong key or body changed"
	case ReasonTimestamp:
		return "timestamp outside the window"
	case ReasonReplay:
		return "replayed"
	}
	return string(r)
}

// VerifyError is a refused delivery: the reason and what exactly was wrong.
type VerifyError struct {
	Reason Reason
	Detail string
}

func (e *VerifyError) Error() string {
	if e.Detail == "" {
		return e.Reason.Summary()
	}
	return e.Reason.Summary() + ": " + e.Detail
}

// ReasonOf is the reason of a Verify error, "" when err is not one.
func ReasonOf(err error) Reason {
	var ve *VerifyError
	if errors.As(err, &ve) {
		return ve.Reason
	}
	return ""
}

func refuse(r Reason, format string, args ...any) error {
	return &VerifyError{Reason: r, Detail: fmt.Sprintf(format, args...)}
}

// Verify checks one delivery as the gateway signs it: timestamp is the
// X-Timestamp header (unix seconds), signature the X-Signature header (hex
// HMAC-SHA256 under key of timestamp + "." + body), body the raw bytes
// received. The timestamp must be within tolerance of now (tolerance <= 0
// means DefaultTolerance). The error is a *VerifyError saying why.
func Verify(key, timestamp, signature string, body []byte, now time.Time, tolerance time.Duration) error {
	if tolerance <= 0 {
		tolerance = DefaultTolerance
	}
	if key == "" || apiclient.IsMaskedKey(key) {
		return refuse(ReasonSignature, "no usable signing key (a masked key cannot verify)")
	}
	timestamp, signature = strings.TrimSpace(timestamp), strings.TrimSpace(signature)
	if timestamp == "" {
		return refuse(ReasonMalformed, "the %s header is missing", apiclient.WebhookTimestampHeader)
	}
	sec, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return refuse(ReasonMalformed, "%s %q is not unix seconds", apiclient.WebhookTimestampHeader, clip(timestamp))
	}
	if signature == "" {
		return refuse(ReasonMalformed, "the %s header is missing", apiclient.WebhookSignatureHeader)
	}
	if !isHex(signature) || len(signature) != 2*sha256.Size {
		return refuse(ReasonMalformed, "%s is not %d hex digits (HMAC-SHA256)", apiclient.WebhookSignatureHeader, 2*sha256.Size)
	}
	signedAt := time.Unix(sec, 0)
	// The HMAC is checked first: an old delivery with a good signature is
	// "too old", a forged one is "wrong key or body changed" whatever its
	// time says. apiclient checks the window against the now it is given;
	// the signing time itself passes it, so only the HMAC decides there.
	if err := apiclient.VerifyWebhookSignature(key, timestamp, signature, body, signedAt); err != nil {
		return refuse(ReasonSignature, "the signature does not match the body under this key")
	}
	if skew := now.Sub(signedAt); skew > tolerance || skew < -tolerance {
		when := humantime.Duration(skew) + " ago"
		if skew < 0 {
			when = humantime.Duration(skew) + " in the future"
		}
		return refuse(ReasonTimestamp, "signed %s, more than the %s allowed", when, humantime.Duration(tolerance))
	}
	return nil
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// clip shortens a header value quoted in a message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
