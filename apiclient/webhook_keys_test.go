package apiclient

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func TestWebhookKeyWhole(t *testing.T) {
	for key, whole := range map[string]bool{
		"whsec_" + strings.Repeat("ab", 32): true,
		"whsk_****…6a88":                    false,
		"whsec_...6a88":                     false,
		"whsec_short":                       false,
		"":                                  false,
		strings.Repeat("•", 30):             false,
	} {
		if WebhookKeyWhole(key) != whole {
			t.Errorf("WebhookKeyWhole(%q) = %v", key, !whole)
		}
	}
}

// A rotation answered with a masked key is an error that carries what the
// gateway sent, so a screen can say it came masked and offer to rotate.
func TestRotateWebhookKeyMaskedAnswer(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/webhooks/c/rotate-key", 200, `{"success":true,"data":{"apiKey":"whsk_****…6a88"}}`)
	rec.json("POST /v1/webhooks/e/rotate-key", 200, `{"success":true}`)
	c := webhookClient(rec, false)
	_, err := c.RotateWebhookKey(context.Background(), "c")
	var masked *MaskedKeyError
	if !errors.As(err, &masked) || masked.Answered != "whsk_****…6a88" {
		t.Fatalf("masked answer: %v", err)
	}
	_, err = c.RotateWebhookKey(context.Background(), "e")
	if !errors.As(err, &masked) || masked.Answered != "" {
		t.Fatalf("answer without a key: %v", err)
	}
}
