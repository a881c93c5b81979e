package apiclient_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// TestWebhookDeliveriesAndTriggerOnTheSandbox points a configuration at a
// local plain-HTTP receiver, triggers a test event, and reads its attempts.
func TestWebhookDeliveriesAndTriggerOnTheSandbox(t *testing.T) {
	got := make(chan []byte, 4)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got <- b
		w.WriteHeader(http.StatusAccepted)
	}))
	defer receiver.Close()
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	c := apiclient.New(apiclient.Config{BaseURL: gw.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	ctx := context.Background()
	if _, err := c.Login(ctx, "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	hook, err := c.CreateWebhook(ctx, apiclient.WebhookCreate{Name: "Local", URL: receiver.URL + "/in", EventTypes: []string{"card.frozen"}, IsActive: true})
	if err != nil {
		t.Fatalf("a loopback http receiver is refused: %v", err)
	}
	ev, err := c.SandboxTrigger(ctx, "card.frozen", "alice@demo.test")
	if err != nil || len(ev.Deliveries) != 1 || ev.Deliveries[0].ID != hook.ID || ev.EventID == "" {
		t.Fatalf("trigger: %+v %v", ev, err)
	}
	<-got
	deadline := time.Now().Add(5 * time.Second)
	for {
		ds, err := c.WebhookDeliveries(ctx, hook.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) == 1 && ds[0].State == "delivered" {
			a := ds[0].Attempts
			if ds[0].EventID != ev.EventID || len(a) != 1 || a[0].Attempt != 1 || a[0].Status != http.StatusAccepted || a[0].At == "" {
				t.Fatalf("delivery %+v", ds[0])
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries %+v", ds)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := c.SandboxTrigger(ctx, "Not A Type", ""); err == nil {
		t.Fatal("a malformed event type was sent")
	}
	if !slices.Equal(apiclient.SandboxEmittedEventTypes, sandbox.WebhookEventTypes) {
		t.Fatalf("apiclient.SandboxEmittedEventTypes %v differ from the sandbox's %v", apiclient.SandboxEmittedEventTypes, sandbox.WebhookEventTypes)
	}
	noSecret := apiclient.New(apiclient.Config{BaseURL: gw.URL, ClientKey: sandbox.DemoClientKey})
	if _, err := noSecret.SandboxTrigger(ctx, "card.frozen", ""); err == nil {
		t.Fatal("trigger without the secret key succeeded")
	}
}
