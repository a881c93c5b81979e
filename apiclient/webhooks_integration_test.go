package apiclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// webhookDelivery is one delivery a TLS receiver got.
type webhookDelivery struct {
	header http.Header
	body   []byte
}

func TestSandboxWebhookLifecycleAndVerifiedDeliveries(t *testing.T) {
	got := make(chan webhookDelivery, 8)
	recv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- webhookDelivery{r.Header.Clone(), b}
	}))
	t.Cleanup(recv.Close)
	g := newGateway(t, sandbox.Options{WebhookClient: recv.Client()})
	c := g.client()
	login(t, c, "alice@demo.test")
	ctx := context.Background()

	list, err := c.Webhooks(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("seeded list: %d %v", len(list), err)
	}
	w, err := c.CreateWebhook(ctx, apiclient.WebhookCreate{Name: "Cards", URL: recv.URL + "/hook",
		EventTypes: []string{"card.frozen"}, IsActive: true, Metadata: map[string]json.RawMessage{"team": json.RawMessage(`"ops"`)}})
	if err != nil || apiclient.IsMaskedKey(w.APIKey) {
		t.Fatalf("create: %+v %v", w, err)
	}
	key := w.APIKey
	again, err := c.Webhook(ctx, w.ID)
	if err != nil || !apiclient.IsMaskedKey(again.APIKey) || string(again.Metadata["team"]) != `"ops"` {
		t.Fatalf("get: %+v %v", again, err)
	}

	// A real delivery verifies with the key shown at creation, on the
	// sandbox's clock, and not outside the 300 s window.
	if err := c.FreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	d := next(t, got)
	ts, sig := d.header.Get(apiclient.WebhookTimestampHeader), d.header.Get(apiclient.WebhookSignatureHeader)
	if err := apiclient.VerifyWebhookSignature(key, ts, sig, d.body, g.clock.Now()); err != nil {
		t.Fatalf("delivery does not verify: %v", err)
	}
	if err := apiclient.VerifyWebhookSignature(key, ts, sig, d.body, g.clock.Now().Add(301*time.Second)); !errors.Is(err, apiclient.ErrWebhookTimestamp) {
		t.Fatalf("stale delivery accepted: %v", err)
	}
	var ev apiclient.WebhookEvent
	if err := json.Unmarshal(d.body, &ev); err != nil || ev.EventType != "card.frozen" || ev.EventCategory != "card" || ev.EventObjectID == "" {
		t.Fatalf("event %+v %v", ev, err)
	}

	// Rotation: the next delivery verifies with the new key only.
	newKey, err := c.RotateWebhookKey(ctx, w.ID)
	if err != nil || newKey == key {
		t.Fatalf("rotate: %v", err)
	}
	on := true
	events := []string{"card.frozen", "card.unfrozen"}
	if _, err := c.UpdateWebhook(ctx, w.ID, apiclient.WebhookUpdate{EventTypes: events, IsActive: &on}); err != nil {
		t.Fatal(err)
	}
	if err := c.UnfreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	d = next(t, got)
	ts, sig = d.header.Get(apiclient.WebhookTimestampHeader), d.header.Get(apiclient.WebhookSignatureHeader)
	if err := apiclient.VerifyWebhookSignature(newKey, ts, sig, d.body, g.clock.Now()); err != nil {
		t.Fatalf("after rotation: %v", err)
	}
	if err := apiclient.VerifyWebhookSignature(key, ts, sig, d.body, g.clock.Now()); !errors.Is(err, apiclient.ErrWebhookSignature) {
		t.Fatalf("old key still verifies: %v", err)
	}

	// Inactive: no delivery.
	off := false
	u, err := c.UpdateWebhook(ctx, w.ID, apiclient.WebhookUpdate{IsActive: &off})
	if err != nil || u.IsActive || u.Name != "Cards" {
		t.Fatalf("deactivate: %+v %v", u, err)
	}
	if err := c.FreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case d := <-got:
		t.Fatalf("inactive webhook got %s", d.body)
	case <-time.After(200 * time.Millisecond):
	}

	// Errors the screen relies on.
	bad := "http://insecure.test"
	if _, err := c.UpdateWebhook(ctx, w.ID, apiclient.WebhookUpdate{URL: &bad}); err == nil {
		t.Fatal("http url accepted")
	}
	long := "x"
	_, err = c.UpdateWebhook(ctx, "00000000-0000-4000-8000-000000000000", apiclient.WebhookUpdate{Name: &long})
	wantError(t, err, 404, "Webhook configuration not found")
	if err := c.DeleteWebhook(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	wantError(t, c.DeleteWebhook(ctx, w.ID), 404, "Webhook configuration not found")
}

func TestSandboxWebhookLimitAndProduction(t *testing.T) {
	g := newGateway(t, sandbox.Options{})
	ctx := context.Background()
	gus := g.client(func(cfg *apiclient.Config) { cfg.ClientKey = "ck_sandbox_globex" })
	login(t, gus, "gus@globex.test")
	in := apiclient.WebhookCreate{Name: "Fifth", URL: "https://example.test/hooks", EventTypes: []string{"card.activated"}, IsActive: true}
	if _, err := gus.CreateWebhook(ctx, in); err != nil {
		t.Fatal(err)
	}
	_, err := gus.CreateWebhook(ctx, in)
	wantError(t, err, 400, "Maximum of 5 webhook configurations per partner reached")

	olga := g.client(func(cfg *apiclient.Config) { cfg.ClientKey = "ck_live_acme" })
	login(t, olga, "olga@acme.test")
	_, err = olga.Webhooks(ctx)
	wantError(t, err, 503, "Notification service is not configured for this environment")

	umar := g.client()
	login(t, umar, "umar@demo.test")
	_, err = umar.Webhooks(ctx)
	wantError(t, err, 403, "Not authorized")
}

func next(t *testing.T, ch chan webhookDelivery) webhookDelivery {
	t.Helper()
	select {
	case d := <-ch:
		return d
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery within 5 s")
	}
	return webhookDelivery{}
}
