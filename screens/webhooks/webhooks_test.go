package webhooks

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"cardterm/screens/card"
	"cardterm/screens/screenkit"

	"cardterm/screens/account"

	"cardterm/apiclient"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
)

func TestMain(m *testing.M) { screentest.Main(m) }

// clientKey signs the test app in on another tenant environment.
func clientKey(k string) screentest.Option {
	return func(ts *screentest.Setup) { ts.Config.ClientKey = k }
}

var fullKey = regexp.MustCompile(`whsec_[0-9a-f]{64}`)

// newApp signs user in and opens the webhooks screen.
var newApp = screentest.Preset{SignIn: screentest.Of(signin.New), Open: screenkit.WebhooksScreen,
	Options: []screentest.Option{screentest.WithScreen(screentest.Of(account.New), screentest.Of(card.New), screentest.Of(New))}}.NewSignedIn

// hooksOnServer reads the partner's configurations straight from the gateway.
func hooksOnServer(a *screentest.App) []apiclient.Webhook {
	a.T.Helper()
	hooks, err := a.Client.Webhooks(context.Background())
	if err != nil {
		a.T.Fatal(err)
	}
	return hooks
}

func TestWebhooksListGolden(t *testing.T) {
	a := newApp(t, "alice@demo.test")
	a.MustShow(t, "2 endpoints · limit 5", "Ledger sync", "hooks.acme.test/ledger", "● active", "○ inactive", "2025-10-15")
	a.Golden("webhooks_list")
	a.Keys("enter")
	s := a.Screen()
	screentest.MustShow(t, s, "Webhook Ledger sync", "whsec_********", "card.activated, kyc.status.changed", "ACTIVE", "team", "finance", "Updated      2025-09-01 08:00 UTC")
	if fullKey.MatchString(s) {
		t.Fatal("a full key is on screen")
	}
	a.Keys("esc")
	a.MustShow(t, "CRM (paused)")
}

// addOps adds the webhook "Ops" as a user would, fixing the url the
// form refuses, and returns its signing key, shown once, and the record.
func addOps(t *testing.T, a *screentest.App) (key string, ops apiclient.Webhook) {
	t.Helper()
	a.Keys("a")
	a.Fill("Ops", "http://example.test/hooks")
	a.Keys("tab", "tab", "space") // card.activated
	a.Keys("ctrl+s")
	a.MustShow(t, "Fix the marked fields", "the url must use HTTPS", "[x] card.activated")
	// The focus went to the URL; fix it, add metadata (past every event
	// type, other events and active) and send.
	a.Keys("ctrl+u")
	a.Type("https://example.test/hooks")
	for range len(apiclient.WebhookEventTypes) + len(apiclient.SandboxWebhookEventTypes) + 3 {
		a.Keys("tab")
	}
	a.Type("team=ops")
	a.Keys("enter")
	a.Type("tries=3")
	a.Keys("ctrl+s")
	// Every change confirms, showing the request, before anything is sent.
	a.MustShow(t, `Add webhook "Ops"?`, "POST /v1/webhooks")
	if len(hooksOnServer(a)) != 2 {
		t.Fatal("the webhook was created before the confirmation")
	}
	a.Keys("y")
	s := a.Screen()
	key = fullKey.FindString(s)
	screentest.MustShow(t, s, `Signing key of the new webhook "Ops"`, "will not be shown again", "y copy the key")
	if key == "" {
		t.Fatalf("the full key is not shown once:\n%s", s)
	}
	a.Keys("y")
	s = a.Screen()
	screentest.MustShow(t, s, `copied the signing key of "Ops"`)
	if strings.Count(s, key) != 1 {
		t.Fatal("the key leaked beyond its panel")
	}
	a.Keys("enter")
	s = a.Screen()
	screentest.MustShow(t, s, "3 endpoints · limit 5", "Ops", "example.test/hooks")
	screentest.MustNotShow(t, s, key)
	hooks := hooksOnServer(a)
	ops = hooks[2]
	if ops.Name != "Ops" || !ops.IsActive || string(ops.Metadata["tries"]) != "3" || string(ops.Metadata["team"]) != `"ops"` {
		t.Fatalf("stored %+v", ops)
	}
	return key, ops
}

func TestWebhooksAddKeyOnceToggleRotateDelete(t *testing.T) {
	a := newApp(t, "alice@demo.test")
	key, ops := addOps(t, a)
	// Details show it masked, ending like the key.
	a.Keys("j", "j", "enter")
	a.MustShow(t, "whsec_********"+key[len(key)-4:], "tries", "3")
	a.MustNotShow(t, key)
	a.Keys("esc")

	// t: turning deliveries off confirms with the request first.
	a.Keys("t")
	a.MustShow(t, `Turn deliveries to "Ops" off?`, "PUT /v1/webhooks/"+ops.ID, `{"is_active":false}`)
	if !hooksOnServer(a)[2].IsActive {
		t.Fatal("turned off before the confirmation")
	}
	a.Keys("y")
	a.MustShow(t, `PUT {"is_active":false}`, "○ inactive")
	if hooksOnServer(a)[2].IsActive {
		t.Fatal("still active on the gateway")
	}

	// R: confirm, then the new key once.
	a.Keys("R")
	a.MustShow(t, `Rotate the signing key of "Ops"?`, "POST /v1/webhooks/"+ops.ID+"/rotate-key")
	a.Keys("y")
	s := a.Screen()
	newKey := fullKey.FindString(s)
	screentest.MustShow(t, s, `New signing key of "Ops"`, `signing key of "Ops" rotated`)
	if newKey == "" || newKey == key {
		t.Fatalf("rotation did not show a new key:\n%s", s)
	}
	a.Keys("esc")
	a.MustNotShow(t, newKey)

	// x: confirm with name and url, then gone.
	a.Keys("x")
	a.MustShow(t, `Delete webhook "Ops"?`, "DELETE /v1/webhooks/"+ops.ID, "Name: Ops", "URL:  https://example.test/hooks")
	a.Keys("y")
	a.MustShow(t, "2 endpoints · limit 5", `webhook "Ops" deleted`)
	if len(hooksOnServer(a)) != 2 {
		t.Fatal("not deleted on the gateway")
	}
}

func TestWebhooksEditSendsOnlyWhatChanged(t *testing.T) {
	a := newApp(t, "alice@demo.test")
	a.Keys("e")
	a.MustShow(t, `Edit webhook "Ledger sync"`, "[x] kyc.status.changed", "[x] card.activated", "env=staging")
	a.Keys("ctrl+s")
	a.MustShow(t, "nothing changed")
	a.Keys("tab", "ctrl+u")
	a.Type("https://hooks.acme.test/v2")
	a.Keys("tab", "space") // untick kyc.status.changed
	a.Keys("ctrl+s")
	body := `{"url":"https://hooks.acme.test/v2","event_types":["card.activated"]}`
	a.MustShow(t, `Save changes to "Ledger sync"?`, body)
	a.Keys("n")
	a.MustShow(t, "https://hooks.acme.test/v2", "[ ] kyc.status.changed") // the form keeps it
	a.Keys("ctrl+s", "y")
	s := a.Screen()
	screentest.MustShow(t, s, `webhook "Ledger sync" saved: PUT`)
	h := hooksOnServer(a)[0]
	if h.URL != "https://hooks.acme.test/v2" || len(h.EventTypes) != 1 || h.Name != "Ledger sync" || string(h.Metadata["env"]) != `"staging"` {
		t.Fatalf("stored %+v", h)
	}
}

func TestWebhooksSixthRefusedWithGatewayMessage(t *testing.T) {
	a := newApp(t, "gus@globex.test", clientKey("ck_sandbox_globex"))
	a.MustShow(t, "4 endpoints · limit 5", "Legacy bridge")
	add := func(name string) {
		a.Keys("a")
		a.Fill(name, "https://example.test/"+name)
		a.Keys("tab", "tab", "space", "ctrl+s", "y")
	}
	add("fifth")
	a.Keys("esc")
	a.MustShow(t, "5 endpoints · limit 5")
	add("sixth")
	a.MustShow(t, "The gateway refused: Maximum of 5 webhook configurations per partner reached (400)", "https://example.test/sixth")
	a.Keys("esc")
	a.MustShow(t, "5 endpoints · limit 5")
}

func TestWebhooksUnavailableForbiddenReadOnly(t *testing.T) {
	a := newApp(t, "olga@acme.test", clientKey("ck_live_acme"))
	a.MustShow(t, "notifications are not configured for this environment")
	a.Keys("a")
	a.MustShow(t, "notifications are not configured for this environment")

	u := newApp(t, "umar@demo.test")
	u.MustShow(t, "verification required")

	ro := newApp(t, "alice@demo.test", screentest.ReadOnly())
	ro.MustNotShow(t, "a add")
	for _, k := range []string{"a", "e", "t", "R", "x"} {
		ro.Keys(k)
		ro.MustShow(t, "read-only mode:", "is disabled")
		if ro.UI().DialogOpen() {
			t.Fatalf("%s opened a dialog in read-only mode", k)
		}
	}
	if !hooksOnServer(ro)[0].IsActive {
		t.Fatal("read-only changed the gateway")
	}
}

func TestWebhookMetadataLinesRoundTrip(t *testing.T) {
	in := map[string]json.RawMessage{"s": []byte(`"text"`), "n": []byte(`3`), "b": []byte(`true`), "q": []byte(`"42"`),
		"o": []byte(`{"a": [1, 2]}`), "e": []byte(`""`)}
	lines := metadataLines(in)
	want := []string{`b=true`, `e=`, `n=3`, `o={"a":[1,2]}`, `q="42"`, `s=text`}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Fatalf("lines %q", lines)
	}
	out, err := parseMetadata(strings.Join(lines, "\n"))
	if err != nil || !sameMetadata(out, map[string]json.RawMessage{"s": []byte(`"text"`), "n": []byte(`3`), "b": []byte(`true`),
		"q": []byte(`"42"`), "o": []byte(`{"a":[1,2]}`), "e": []byte(`""`)}) {
		t.Fatalf("parsed %s %v", out, err)
	}
	for _, bad := range []string{"novalue", "=x", "a=1\na=2"} {
		if _, err := parseMetadata(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The add form's help names exactly the keys that move: ↓ and ↑ outside
// the metadata text area, where they edit instead; space only where it
// ticks.
func TestWebhookFormHelpFollowsTheFocus(t *testing.T) {
	a := newApp(t, "alice@demo.test")
	a.Keys("a")
	s := a.Screen()
	screentest.MustShow(t, s, "tab/↓ next field")
	screentest.MustNotShow(t, s, "space tick")
	a.Keys("down", "down")
	a.MustShow(t, "space tick/untick")
	// The checklist's other values, other events, active, metadata (tab
	// wraps around to the name after the last field).
	for range len(apiclient.WebhookEventTypes) + len(apiclient.SandboxWebhookEventTypes) + 2 {
		a.Keys("tab")
	}
	s = a.Screen()
	screentest.MustShow(t, s, "tab next field")
	screentest.MustNotShow(t, s, "tab/↓", "space tick")
}

// The interface allows names of 255 characters at most and HTTPS URLs:
// the form says so under the field before anything is sent, and keeps
// what was typed.
func TestWebhookFormChecksTheInterfaceLimitsBeforeSending(t *testing.T) {
	a := newApp(t, "alice@demo.test")
	before := len(a.Server.Requests())
	long := strings.Repeat("n", apiclient.WebhookNameMax+1)
	a.Keys("a")
	a.Fill(long, "ftp://example.test/hooks")
	a.Keys("tab", "tab", "space") // card.activated
	a.Keys("ctrl+s")
	a.MustShow(t, "Fix the marked fields", "at most 255 characters (this one has 256)", "the url must use HTTPS")
	for _, r := range a.Server.Requests()[before:] {
		if r.Method != "GET" {
			t.Fatalf("sent %s %s with a name over the limit", r.Method, r.Path)
		}
	}
	if a.UI().DialogOpen() {
		t.Fatal("a confirmation opened for a name over the limit")
	}
	// What was typed is kept whole: deleting one character makes it fit.
	a.Keys("end", "backspace", "tab", "ctrl+u")
	a.Type("https://example.test/hooks")
	a.Keys("ctrl+s")
	a.MustShow(t, "POST /v1/webhooks")
}
