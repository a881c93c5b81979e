package screens

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/ui"
)

// whClientKey signs the test app in on another tenant environment.
func whClientKey(k string) appOption { return func(ts *testSetup) { ts.cfg.ClientKey = k } }

var whFullKey = regexp.MustCompile(`whsec_[0-9a-f]{64}`)

// whApp signs user in and opens the webhooks screen.
func whApp(t *testing.T, user string, opts ...appOption) *testApp {
	t.Helper()
	a := newTestApp(t, append([]appOption{withScreen(NewWebhooks)}, opts...)...)
	a.signIn(user)
	a.keys("9")
	return a
}

// whServer reads the partner's configurations straight from the gateway.
func (a *testApp) whServer() []apiclient.Webhook {
	a.t.Helper()
	hooks, err := a.client.Webhooks(context.Background())
	if err != nil {
		a.t.Fatal(err)
	}
	return hooks
}

func TestWebhooksListGolden(t *testing.T) {
	a := whApp(t, "alice@demo.test")
	mustShow(t, a.screen(), "2 of 5 endpoints", "Ledger sync", "hooks.acme.test/ledger", "● active", "○ inactive", "2025-10-15")
	a.golden("webhooks_list")
	a.keys("enter")
	s := a.screen()
	mustShow(t, s, "Webhook Ledger sync", "whsec_********", "card.activated, kyc.status.changed", "ACTIVE", "team", "finance", "2025-09-01T08:00:00Z")
	if whFullKey.MatchString(s) {
		t.Fatal("a full key is on screen")
	}
	a.keys("esc")
	mustShow(t, a.screen(), "CRM (paused)")
}

func TestWebhooksAddKeyOnceToggleRotateDelete(t *testing.T) {
	a := whApp(t, "alice@demo.test")
	a.keys("a")
	a.typeText("Ops")
	a.keys("tab")
	a.typeText("http://example.test/hooks")
	a.keys("tab", "tab", "space") // card.activated
	a.keys("ctrl+s")
	mustShow(t, a.screen(), "Fix the marked fields", "the url must use HTTPS", "[x] card.activated")
	// The focus went to the URL; fix it, add metadata and send.
	a.keys("ctrl+u")
	a.typeText("https://example.test/hooks")
	for range 8 {
		a.keys("tab")
	}
	a.typeText("team=ops")
	a.keys("enter")
	a.typeText("tries=3")
	a.keys("ctrl+s")
	s := a.screen()
	key := whFullKey.FindString(s)
	mustShow(t, s, `Signing key of the new webhook "Ops"`, "will not be shown again", "y copy the key")
	if key == "" {
		t.Fatalf("the full key is not shown once:\n%s", s)
	}
	a.keys("y")
	s = a.screen()
	mustShow(t, s, `copied the signing key of "Ops"`)
	if strings.Count(s, key) != 1 {
		t.Fatal("the key leaked beyond its panel")
	}
	a.keys("enter")
	s = a.screen()
	mustShow(t, s, "3 of 5 endpoints", "Ops", "example.test/hooks")
	mustNotShow(t, s, key)
	hooks := a.whServer()
	ops := hooks[2]
	if ops.Name != "Ops" || !ops.IsActive || string(ops.Metadata["tries"]) != "3" || string(ops.Metadata["team"]) != `"ops"` {
		t.Fatalf("stored %+v", ops)
	}
	// Details show it masked, ending like the key.
	a.keys("j", "j", "enter")
	mustShow(t, a.screen(), "whsec_********"+key[len(key)-4:], "tries", "3")
	mustNotShow(t, a.screen(), key)
	a.keys("esc")

	// t: PUT {is_active:false}, no dialog.
	a.keys("t")
	mustShow(t, a.screen(), `PUT {"is_active":false}`, "○ inactive")
	if a.whServer()[2].IsActive {
		t.Fatal("still active on the gateway")
	}

	// R: confirm, then the new key once.
	a.keys("R")
	mustShow(t, a.screen(), `Rotate the signing key of "Ops"?`, "POST /v1/webhooks/"+ops.ID+"/rotate-key")
	a.keys("y")
	s = a.screen()
	newKey := whFullKey.FindString(s)
	mustShow(t, s, `New signing key of "Ops"`, `signing key of "Ops" rotated`)
	if newKey == "" || newKey == key {
		t.Fatalf("rotation did not show a new key:\n%s", s)
	}
	a.keys("esc")
	mustNotShow(t, a.screen(), newKey)

	// x: confirm with name and url, then gone.
	a.keys("x")
	mustShow(t, a.screen(), `Delete webhook "Ops"?`, "DELETE /v1/webhooks/"+ops.ID, "Name: Ops", "URL:  https://example.test/hooks")
	a.keys("y")
	mustShow(t, a.screen(), "2 of 5 endpoints", `webhook "Ops" deleted`)
	if len(a.whServer()) != 2 {
		t.Fatal("not deleted on the gateway")
	}
}

func TestWebhooksEditSendsOnlyWhatChanged(t *testing.T) {
	a := whApp(t, "alice@demo.test")
	a.keys("e")
	mustShow(t, a.screen(), `Edit webhook "Ledger sync"`, "[x] kyc.status.changed", "[x] card.activated", "env=staging")
	a.keys("ctrl+s")
	mustShow(t, a.screen(), "nothing changed")
	a.keys("tab", "ctrl+u")
	a.typeText("https://hooks.acme.test/v2")
	a.keys("tab", "space") // untick kyc.status.changed
	a.keys("ctrl+s")
	body := `{"url":"https://hooks.acme.test/v2","event_types":["card.activated"]}`
	mustShow(t, a.screen(), `Save changes to "Ledger sync"?`, body)
	a.keys("n")
	mustShow(t, a.screen(), "https://hooks.acme.test/v2", "[ ] kyc.status.changed") // the form keeps it
	a.keys("ctrl+s", "y")
	s := a.screen()
	mustShow(t, s, `webhook "Ledger sync" saved: PUT`)
	h := a.whServer()[0]
	if h.URL != "https://hooks.acme.test/v2" || len(h.EventTypes) != 1 || h.Name != "Ledger sync" || string(h.Metadata["env"]) != `"staging"` {
		t.Fatalf("stored %+v", h)
	}
}

func TestWebhooksSixthRefusedWithGatewayMessage(t *testing.T) {
	a := whApp(t, "gus@globex.test", whClientKey("ck_sandbox_globex"))
	mustShow(t, a.screen(), "4 of 5 endpoints", "Legacy bridge")
	add := func(name string) {
		a.keys("a")
		a.typeText(name)
		a.keys("tab")
		a.typeText("https://example.test/" + name)
		a.keys("tab", "tab", "space", "ctrl+s")
	}
	add("fifth")
	a.keys("esc")
	mustShow(t, a.screen(), "5 of 5 endpoints")
	add("sixth")
	mustShow(t, a.screen(), "The gateway refused: Maximum of 5 webhook configurations per partner reached (400)", "https://example.test/sixth")
	a.keys("esc")
	mustShow(t, a.screen(), "5 of 5 endpoints")
}

func TestWebhooksUnavailableForbiddenReadOnly(t *testing.T) {
	a := whApp(t, "olga@acme.test", whClientKey("ck_live_acme"))
	mustShow(t, a.screen(), "notifications are not configured for this environment")
	a.keys("a")
	mustShow(t, a.screen(), "notifications are not configured for this environment")

	u := whApp(t, "umar@demo.test")
	mustShow(t, u.screen(), "verification required")

	ro := whApp(t, "alice@demo.test", readOnly())
	mustNotShow(t, ro.screen(), "a add")
	for _, k := range []string{"a", "e", "t", "R", "x"} {
		ro.keys(k)
		mustShow(t, ro.screen(), "read-only mode: changing webhooks")
		if ro.root.(*ui.Root).DialogOpen() {
			t.Fatalf("%s opened a dialog in read-only mode", k)
		}
	}
	if !ro.whServer()[0].IsActive {
		t.Fatal("read-only changed the gateway")
	}
}

func TestWebhookMetadataLinesRoundTrip(t *testing.T) {
	in := map[string]json.RawMessage{"s": []byte(`"text"`), "n": []byte(`3`), "b": []byte(`true`), "q": []byte(`"42"`),
		"o": []byte(`{"a": [1, 2]}`), "e": []byte(`""`)}
	lines := whMetadataLines(in)
	want := []string{`b=true`, `e=`, `n=3`, `o={"a":[1,2]}`, `q="42"`, `s=text`}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Fatalf("lines %q", lines)
	}
	out, err := whParseMetadata(strings.Join(lines, "\n"))
	if err != nil || !whSameMeta(out, map[string]json.RawMessage{"s": []byte(`"text"`), "n": []byte(`3`), "b": []byte(`true`),
		"q": []byte(`"42"`), "o": []byte(`{"a":[1,2]}`), "e": []byte(`""`)}) {
		t.Fatalf("parsed %s %v", out, err)
	}
	for _, bad := range []string{"novalue", "=x", "a=1\na=2"} {
		if _, err := whParseMetadata(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
