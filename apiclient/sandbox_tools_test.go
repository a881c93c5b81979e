package apiclient_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

func TestParseSandboxOverride(t *testing.T) {
	for in, want := range map[string]string{
		"event_object.status=FROZEN":  `"FROZEN"`,
		"event_object.amount=12.5":    `12.5`,
		`event_object.note="12"`:      `"12"`,
		`event_object.meta={"a":1}`:   `{"a":1}`,
		"event_object.flag=true":      `true`,
		"event_object.empty=":         `""`,
		"event_object.text=a=b":       `"a=b"`,
		"event_object.list=[1, 2]":    `[1, 2]`,
		"event_object.half={\"a\":":   `"{\"a\":"`,
		"user_id= spaced out value  ": `" spaced out value  "`,
	} {
		o, err := apiclient.ParseSandboxOverride(in)
		if err != nil || string(o.Value) != want {
			t.Errorf("%s: %s %v, want %s", in, o.Value, err, want)
		}
	}
	for _, bad := range []string{"no-equals", "=value", "a..b=1", ".a=1"} {
		if _, err := apiclient.ParseSandboxOverride(bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}

// TestSandboxEventToolsOverHTTP triggers a shaped event, resends it and
// follows the log, all against the sandbox over HTTP.
func TestSandboxEventToolsOverHTTP(t *testing.T) {
	got := make(chan map[string]any, 4)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var ev map[string]any
		_ = json.Unmarshal(b, &ev)
		got <- ev
	}))
	defer receiver.Close()
	gw := sandbox.New(sandbox.Options{})
	server := httptest.NewServer(gw)
	defer server.Close()
	defer gw.Close()
	c := apiclient.New(apiclient.Config{BaseURL: server.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	logged := make(chan apiclient.SandboxLogEntry, 64)
	following := make(chan error, 1)
	go func() {
		following <- c.SandboxLogs(ctx, func(e apiclient.SandboxLogEntry) error { logged <- e; return nil })
	}()
	// The stream starts listening at some point after the call: sign in
	// until a sign-in shows in it.
	var e apiclient.SandboxLogEntry
	for deadline := time.Now().Add(10 * time.Second); e.Path != "/v1/auth/login"; {
		if _, err := c.Login(ctx, "alice@demo.test", "demo-pass"); err != nil {
			t.Fatal(err)
		}
		select {
		case e = <-logged:
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("no sign-in appeared in the log")
		}
	}
	if e.Status != 200 || e.Method != "POST" || e.Tenant != "acme/sandbox/eu" {
		t.Fatalf("logged %+v", e)
	}
	if _, err := c.CreateWebhook(ctx, apiclient.WebhookCreate{Name: "Local", URL: receiver.URL, EventTypes: []string{"card.frozen"}, IsActive: true}); err != nil {
		t.Fatal(err)
	}
	override, _ := apiclient.ParseSandboxOverride("event_object.status=FROZEN")
	ev, err := c.SandboxTriggerEvent(ctx, apiclient.SandboxTriggerRequest{EventType: "card.frozen",
		Fixture: json.RawMessage(`{"event_object_id":"from-fixture"}`), Overrides: []apiclient.SandboxOverride{override}})
	if err != nil || len(ev.Deliveries) != 1 {
		t.Fatalf("trigger: %+v %v", ev, err)
	}
	first := <-got
	if first["event_object"].(map[string]any)["status"] != "FROZEN" || first["event_object_id"] != "from-fixture" {
		t.Fatalf("delivered %v", first)
	}
	resent, err := c.SandboxResend(ctx, ev.EventID, "")
	if err != nil || resent.EventID != ev.EventID || len(resent.Deliveries) != 1 {
		t.Fatalf("resend: %+v %v", resent, err)
	}
	if again := <-got; again["event_id"] != ev.EventID {
		t.Fatalf("resent event %v, want id %s", again["event_id"], ev.EventID)
	}
	if _, err := c.SandboxResend(ctx, "no-such-event", ""); !apiclient.IsNotFound(err) {
		t.Fatalf("resend of an unknown event: %v", err)
	}
	if _, err := c.SandboxTriggerEvent(ctx, apiclient.SandboxTriggerRequest{EventType: "card.frozen", Fixture: json.RawMessage(`[1]`)}); err == nil {
		t.Fatal("a fixture that is not an object was sent")
	}

	cancel()
	if err := <-following; err != nil {
		t.Fatalf("following the log ended with %v, want nil after cancel", err)
	}
	noSecret := apiclient.New(apiclient.Config{BaseURL: server.URL, ClientKey: sandbox.DemoClientKey, SecretKey: "sk_wrong"})
	if err := noSecret.SandboxLogs(context.Background(), func(apiclient.SandboxLogEntry) error { return nil }); !apiclient.IsStatus(err, 401) {
		t.Fatalf("logs with a wrong secret key: %v", err)
	}
}
