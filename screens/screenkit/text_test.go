package screenkit

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLabel(t *testing.T) {
	for in, want := range map[string]string{
		"txHash": "Tx hash", "authorizationCode": "Authorization code", "paymentMethod": "Payment method",
		"merchant.name": "Merchant name", "event_type": "Event type", "orderId": "Order id", "userID": "User ID",
		"destinationURL": "Destination URL", "x": "X", "": "",
		"id": "ID", "url": "URL", "apiKey": "API key", "api_version": "API version", "mcc": "MCC",
		"mccCategory": "MCC category", "panLast4": "PAN last4", "webhookUrl": "Webhook URL", "pinSet": "PIN set",
	} {
		if got := Label(in); got != want {
			t.Errorf("Label(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFormatTime(t *testing.T) {
	old := time.Local
	time.Local = time.UTC
	defer func() { time.Local = old }()
	for in, want := range map[string]string{
		"2026-11-20T18:00:00Z":          "2026-11-20 18:00 UTC",
		"2026-11-20T19:30:15.123+01:00": "2026-11-20 18:30 UTC",
		"not a time":                    "not a time",
		"2026-11-20T18:00:00":           "2026-11-20 18:00 UTC",
		" 2026-11-20 18:00:00 ":         "2026-11-20 18:00 UTC",
		"2026-11":                       "2026-11",
		"12.50":                         "12.50",
	} {
		if got := FormatTime(in); got != want {
			t.Errorf("FormatTime(%q) = %q, want %q", in, got, want)
		}
	}
}

// Labels are remembered, and the memory stays bounded whatever names a
// gateway sends.
func TestLabelsAreRememberedWithinABound(t *testing.T) {
	first := Label("authorizationCode")
	if again := Label("authorizationCode"); first != "Authorization code" || again != first {
		t.Fatalf("a remembered label differs: %q then %q", first, again)
	}
	for i := range labelCacheSize + 10 {
		Label("field" + strconv.Itoa(i))
	}
	labelMu.Lock()
	n := len(labelCache)
	labelMu.Unlock()
	if n > labelCacheSize {
		t.Fatalf("%d labels remembered, the bound is %d", n, labelCacheSize)
	}
	if got := Label("field7"); got != "Field7" {
		t.Fatalf("Label(field7) = %q", got)
	}
}

func TestLabelsKeepWireNamesWhereTheyWouldReadAlike(t *testing.T) {
	got := Labels([]string{"event_id", "event_object_id", "event_object.id", "event_object.status", "event_id"})
	want := []string{"Event id", "event_object_id", "event_object.id", "Event object status", "Event id"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("Labels = %q, want %q", got, want)
	}
}
