package e2e

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// listenerURLRE finds the in-app listener's address on the Events screen.
var listenerURLRE = regexp.MustCompile(`listening on (http://127\.0\.0\.1:\d+/)`)

// TestEventsScreenShowsVerifiedAndTampered: a webhook pointed at the
// in-app listener from the Webhooks screen, the card frozen, card.frozen
// arriving verified on the Events screen; then a delivery with a wrong
// signature, sent by the test to the listener, shown rejected with why.
func TestEventsScreenShowsVerifiedAndTampered(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Webhooks")
	tm.waitFor("2 endpoints · limit 5")
	tm.confirm("L", "Add a webhook for the in-app listener?", "POST /v1/webhooks", `"name": "cardterm in-app`)
	tm.waitFor("3 endpoints · limit 5", "deliveries show on the Events screen")

	tm.open("Card")
	tm.waitFor("ACTIVE", "4242")
	tm.confirm("f", "Freeze the card")
	tm.waitFor("FROZEN")

	tm.open("Events")
	s := tm.waitFor("Events", "card.frozen", "✓ verified", "VERIFIED", "1 delivery")
	m := listenerURLRE.FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no listener address on the Events screen:\n%s", s)
	}

	body := `{"api_version":"v1","event_id":"forged-1","event_category":"card","event_type":"card.unfrozen","user_id":"u","event_object":{"status":"ACTIVE"},"occurred_at":"2026-11-24T12:00:00Z"}`
	req, _ := http.NewRequest(http.MethodPost, m[1], strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Timestamp", strconv.FormatInt(time.Now().Unix(), 10))
	req.Header.Set("X-Signature", strings.Repeat("ab", 32))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the forged delivery was answered %d", resp.StatusCode)
	}
	s = tm.waitFor("2 deliveries (1 rejected)", "✗ rejected: wrong key or body changed", "REJECTED",
		"the signature does not match the body")
	if strings.Index(s, "card.unfrozen") > strings.Index(s, "✓ verified") {
		t.Fatalf("the newest delivery is not on top:\n%s", s)
	}
	// A rejected delivery is kept without its body: its size and first
	// bytes only; the verified one below it shows its body whole.
	tm.waitFor("not kept (" + strconv.Itoa(len(body)) + " bytes); it began")
	tm.send("j", "i")
	tm.waitFor("Delivery card.frozen (#1), as received", `"event_type": "card.frozen"`)
}
