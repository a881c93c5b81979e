package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

const webhookConfigJSON = `{"id":"w-1","tenant":"acme","name":"Ops","url":"https://example.test/h","apiKey":"whsec_********abcd",
"eventTypes":["card.activated"],"isActive":true,"metadata":{"team":"ops","n":3},"createdAt":"2030-01-01T00:00:00Z",
"updatedAt":"2030-01-02T00:00:00Z","lastDelivery":{"status":200}}`

func webhookClient(rec *recorder, us bool) *Client {
	c := testClient(rec, func(cfg *Config) { cfg.US = us })
	c.SetSession(Session{AccessToken: "access-1"})
	return c
}

func TestWebhooksBearerOnlyNoClientKeyNoRegion(t *testing.T) {
	rec := newRecorder(t)
	rec.json("GET /v1/webhooks", 200, "["+webhookConfigJSON+"]")
	c := webhookClient(rec, true)
	list, err := c.Webhooks(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	h := rec.last().Header
	if h.Get("Authorization") != "Bearer access-1" || h.Get("x-client-key") != "" || h.Get("x-us-env") != "" || h.Get("X-Client-ID") != "" {
		t.Fatalf("webhook headers: %v", h)
	}
	w := list[0]
	if len(list) != 1 || w.Name != "Ops" || !w.IsActive || string(w.Metadata["n"]) != "3" || w.Extra["lastDelivery"] == nil {
		t.Fatalf("decoded %+v", w)
	}
	if !IsMaskedKey(w.APIKey) {
		t.Fatalf("%q should count as masked", w.APIKey)
	}
}

func TestUpdateWebhookSendsOnlyWhatChanges(t *testing.T) {
	rec := newRecorder(t)
	rec.json("PUT /v1/webhooks/w-1", 200, `{"success":true,"data":`+webhookConfigJSON+`}`)
	c := webhookClient(rec, false)
	off := false
	w, err := c.UpdateWebhook(context.Background(), "w-1", WebhookUpdate{IsActive: &off})
	if err != nil || w.ID != "w-1" {
		t.Fatalf("%+v %v", w, err)
	}
	if got := rec.last().Body; got != `{"is_active":false}` {
		t.Fatalf("body %s", got)
	}
	// An empty metadata map is sent (it clears); nil fields are not.
	name := "New"
	_, err = c.UpdateWebhook(context.Background(), "w-1", WebhookUpdate{Name: &name, Metadata: map[string]json.RawMessage{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rec.last().Body; got != `{"name":"New","metadata":{}}` {
		t.Fatalf("body %s", got)
	}
	n := len(rec.requests())
	bad := "http://plain.test"
	_, err = c.UpdateWebhook(context.Background(), "w-1", WebhookUpdate{URL: &bad})
	if err == nil || !strings.Contains(err.Error(), "HTTPS") {
		t.Fatalf("http url accepted: %v", err)
	}
	if _, err = c.UpdateWebhook(context.Background(), "w-1", WebhookUpdate{EventTypes: []string{}}); err == nil {
		t.Fatal("empty event types accepted")
	}
	if _, err = c.UpdateWebhook(context.Background(), "w-1", WebhookUpdate{}); err == nil {
		t.Fatal("empty update accepted")
	}
	if len(rec.requests()) != n {
		t.Fatal("an invalid update was sent")
	}
}

func TestWebhookReadsBareAndEnvelope(t *testing.T) {
	rec := newRecorder(t)
	rec.json("GET /v1/webhooks/a", 200, webhookConfigJSON)
	rec.json("GET /v1/webhooks/b", 200, `{"success":true,"data":`+webhookConfigJSON+`}`)
	rec.json("GET /v1/webhooks/c", 200, `{"success":false,"data":`+webhookConfigJSON+`}`)
	c := webhookClient(rec, false)
	for _, id := range []string{"a", "b"} {
		if w, err := c.Webhook(context.Background(), id); err != nil || w.Name != "Ops" {
			t.Fatalf("%s: %+v %v", id, w, err)
		}
	}
	if _, err := c.Webhook(context.Background(), "c"); err == nil {
		t.Fatal("success:false accepted")
	}
}

func TestRotateWebhookKeyShapes(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/webhooks/a/rotate-key", 200, `{"success":true,"data":{"id":"a","apiKey":"whsec_new1"}}`)
	rec.json("POST /v1/webhooks/b/rotate-key", 200, `{"apiKey":"whsec_new2"}`)
	rec.json("POST /v1/webhooks/c/rotate-key", 200, `{"success":true,"data":{"apiKey":"whsec_********abcd"}}`)
	rec.json("POST /v1/webhooks/d/rotate-key", 503, `{"message":"Notification service is not configured for this environment"}`)
	c := webhookClient(rec, false)
	for id, want := range map[string]string{"a": "whsec_new1", "b": "whsec_new2"} {
		if k, err := c.RotateWebhookKey(context.Background(), id); err != nil || k != want {
			t.Fatalf("%s: %q %v", id, k, err)
		}
	}
	if _, err := c.RotateWebhookKey(context.Background(), "c"); err == nil {
		t.Fatal("a masked key was returned as the new key")
	}
	_, err := c.RotateWebhookKey(context.Background(), "d")
	if !IsStatus(err, 503) {
		t.Fatalf("503: %v", err)
	}
	if strings.Contains(err.Error(), "access-1") {
		t.Fatal("token in error")
	}
}

func TestCreateAndDeleteWebhook(t *testing.T) {
	rec := newRecorder(t)
	rec.json("POST /v1/webhooks", 201, `{"success":true,"data":{"id":"n","apiKey":"whsec_full","name":"N"}}`)
	rec.json("DELETE /v1/webhooks/n", 204, ``)
	c := webhookClient(rec, false)
	in := WebhookCreate{Name: "N", URL: "https://a.test/h", EventTypes: []string{"card.activated"}, IsActive: true}
	w, err := c.CreateWebhook(context.Background(), in)
	if err != nil || w.APIKey != "whsec_full" {
		t.Fatalf("%+v %v", w, err)
	}
	if got := rec.last().Body; got != `{"name":"N","url":"https://a.test/h","event_types":["card.activated"],"is_active":true}` {
		t.Fatalf("body %s", got)
	}
	if err := c.DeleteWebhook(context.Background(), "n"); err != nil {
		t.Fatal(err)
	}
	n := len(rec.requests())
	_, err = c.CreateWebhook(context.Background(), WebhookCreate{Name: " ", URL: "ftp://x", EventTypes: []string{"Bad Type"}})
	var e *Error
	if !errors.As(err, &e) || len(e.Fields) != 3 || len(rec.requests()) != n {
		t.Fatalf("local validation: %v", err)
	}
}

func TestValidateWebhookURL(t *testing.T) {
	for u, ok := range map[string]bool{
		"https://example.test/hooks": true, "https://127.0.0.1:8443/x": true, "http://example.test": false,
		"": false, "https://": false, "example.test/hooks": false, "https://user:pw@example.test": false,
		"http://127.0.0.1:4242/": true, "http://localhost:4242": true, "http://[::1]:1/x": true, "http://10.0.0.1/": false,
		"http://u:p@127.0.0.1/": false,
	} {
		if err := ValidateWebhookURL(u); (err == nil) != ok {
			t.Errorf("%q: %v", u, err)
		}
	}
}

// The add form's checklist offers exactly what the sandbox emits: the
// interface's two types and the sandbox's own, none it never sends.
func TestWebhookChecklistIsWhatTheSandboxEmits(t *testing.T) {
	offered := append(slices.Clone(WebhookEventTypes), SandboxWebhookEventTypes...)
	slices.Sort(offered)
	emitted := slices.Clone(SandboxEmittedEventTypes)
	slices.Sort(emitted)
	if !slices.Equal(offered, emitted) {
		t.Fatalf("offered %v, emitted %v", offered, emitted)
	}
}
