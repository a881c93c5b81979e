package e2e

import (
	"regexp"
	"strings"
	"testing"
)

// webhookKeyRE matches a full webhook signing key (never a masked one).
var webhookKeyRE = regexp.MustCompile(`whsec_[0-9a-f]{64}`)

// webhookAdd fills the add form: name, url, card.activated ticked, then saves.
func webhookAdd(tm *tmuxTerm, name, url string) {
	tm.send("a")
	tm.waitFor("Add webhook")
	tm.typeText(name)
	tm.send("Tab")
	tm.typeText(url)
	tm.send("Tab", "Tab", "Space")
	tm.waitFor("[x] card.activated")
	tm.send("C-s")
	tm.waitFor("Add webhook", "POST /v1/webhooks") // every change confirms first
	tm.send("y")
}

func TestWebhooksAddKeyOnceToggleRotateDelete(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "alice@demo.test")
	tm.open("Webhooks")
	tm.waitFor("2 endpoints · limit 5", "Ledger sync", "CRM (paused)")
	webhookAdd(tm, "Ops", "https://example.test/hooks")
	s := tm.waitFor(`Signing key of the new webhook "Ops"`, "will not be shown again")
	key := webhookKeyRE.FindString(s)
	if key == "" {
		t.Fatalf("the full key is not shown once:\n%s", s)
	}
	tm.send("Enter")
	s = tm.waitFor("3 endpoints · limit 5", "Ops", "example.test/hooks", "● active")
	if strings.Contains(s, key) {
		t.Fatalf("the key is still on screen:\n%s", s)
	}
	tm.send("j", "j", "Enter")
	s = tm.waitFor("Webhook Ops", "whsec_********"+key[len(key)-4:])
	if webhookKeyRE.MatchString(s) {
		t.Fatalf("details show a full key:\n%s", s)
	}
	tm.send("Escape")
	tm.waitFor("row 3 of 3")
	tm.confirm("t", "Turn deliveries to", `{"is_active":false}`)
	tm.waitFor(`PUT {"is_active":false}`, "○ inactive 2")
	tm.confirm("R", `Rotate the signing key of "Ops"?`, "/rotate-key")
	s = tm.waitFor(`New signing key of "Ops"`, "will not be shown again")
	if nk := webhookKeyRE.FindString(s); nk == "" || nk == key {
		t.Fatalf("rotation did not show a new key:\n%s", s)
	}
	tm.send("Escape")
	tm.waitFor("row 3 of 3")
	tm.confirm("x", `Delete webhook "Ops"?`, "Name: Ops", "URL:  https://example.test/hooks")
	tm.waitFor("2 endpoints · limit 5", `webhook "Ops" deleted`)
}

func TestWebhooksSixthRefused(t *testing.T) {
	tm := startTerm(t, nil, "--client-key", "ck_sandbox_globex")
	signInAs(tm, "gus@globex.test")
	tm.open("Webhooks")
	tm.waitFor("4 endpoints · limit 5", "Legacy bridge")
	webhookAdd(tm, "Fifth", "https://example.test/5")
	tm.waitFor(`Signing key of the new webhook "Fifth"`)
	tm.send("Enter")
	tm.waitFor("5 endpoints · limit 5")
	webhookAdd(tm, "Sixth", "https://example.test/6")
	tm.waitFor("The gateway refused: Maximum of 5 webhook configurations per partner reached (400)", "https://example.test/6")
	tm.send("Escape")
	tm.waitFor("5 endpoints · limit 5")
}
