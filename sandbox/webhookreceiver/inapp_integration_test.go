package webhookreceiver_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/sandbox/webhookreceiver"
)

// TestInAppListenerOnTheSandbox is the in-app Events flow without the
// screen: a receiver started before any webhook exists, a configuration
// pointed at it, its key handed over, a freeze arriving verified, and a
// tampered copy rejected with its reason.
func TestInAppListenerOnTheSandbox(t *testing.T) {
	rcv, err := webhookreceiver.New(webhookreceiver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	listener, err := webhookreceiver.Start("127.0.0.1:0", rcv)
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()
	deliveries, stop := rcv.Subscribe(16)
	defer stop()

	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	client := apiclient.New(apiclient.Config{BaseURL: gw.URL, ClientKey: sandbox.DemoClientKey})
	ctx := context.Background()
	if _, err := client.Login(ctx, "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	hook, err := client.CreateWebhook(ctx, apiclient.WebhookCreate{Name: "cardterm events", URL: listener.URL,
		EventTypes: apiclient.SandboxEmittedEventTypes, IsActive: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := rcv.AddKey(hook.APIKey); err != nil {
		t.Fatal(err)
	}
	if err := client.FreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	var d webhookreceiver.Delivery
	select {
	case d = <-deliveries:
	case <-time.After(5 * time.Second):
		t.Fatal("no delivery")
	}
	if !d.Verified || d.EventType != "card.frozen" || d.UserID != sandbox.DemoUserID("alice@demo.test") {
		t.Fatalf("delivery %+v", d)
	}
	// The same headers on a changed body: rejected, and said why.
	tampered := strings.Replace(string(d.Body), "FROZEN", "ACTIVE", 1)
	req, _ := http.NewRequest(http.MethodPost, listener.URL, strings.NewReader(tampered))
	req.Header = d.Header.Clone()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if bad := <-deliveries; resp.StatusCode != http.StatusUnauthorized || bad.Verified || bad.Reason != webhookreceiver.ReasonSignature {
		t.Fatalf("tampered: %d %+v", resp.StatusCode, bad)
	}
	// The sandbox recorded its attempt: one, answered 200.
	deadline := time.Now().Add(5 * time.Second)
	for {
		ds, err := client.WebhookDeliveries(ctx, hook.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) == 1 && ds[0].State == "delivered" && ds[0].Attempts[0].Status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("attempts %+v", ds)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
