package e2e

import (
	"strings"
	"testing"
)

// TestWebhookDetailScrollsAt80x24: at 80x24 a webhook's detail with its
// deliveries is taller than the body; the page says what is below, and
// end, home and the arrows reach all of it, as the help lists.
func TestWebhookDetailScrollsAt80x24(t *testing.T) {
	tm := startTermSized(t, "80", "24", nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Webhooks")
	tm.waitFor("2 endpoints · limit 5")
	tm.confirm("L", "Add a webhook for the in-app listener?")
	tm.waitFor("3 endpoints · limit 5")

	tm.open("Card")
	tm.waitFor("ACTIVE")
	tm.confirm("f", "Freeze the card")
	tm.waitFor("FROZEN")
	tm.confirm("f", "Unfreeze")
	tm.waitFor("ACTIVE")

	tm.open("Webhooks")
	tm.waitFor("3 endpoints · limit 5")
	tm.send("j", "j", "Enter")
	s := tm.waitFor("Webhook cardterm", "more lines below", "↓/j scroll down")
	if strings.Contains(s, "y copy url") {
		t.Fatalf("the whole detail fits, nothing to scroll:\n%s", s)
	}
	tm.send("End")
	s = tm.waitFor("card.unfrozen", "card.frozen", "y copy url", "more lines above")
	if strings.Contains(s, "below") {
		t.Fatalf("the end of the detail still says more below:\n%s", s)
	}
	tm.send("Home")
	tm.waitFor("Webhook cardterm", "more lines below")
	tm.send("j")
	tm.waitFor("↑ 1 more line above")
	tm.send("?")
	tm.waitFor("scroll down", "page down", "G/end")
}
