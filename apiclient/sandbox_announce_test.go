package apiclient_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// A gateway on a loopback port that is not the sandbox (it answers 200
// to anything) is never sent a sandbox-only path: the client, signed out,
// asks what it is once with a consent read of the interface (x-client-key,
// which it has), hears no announcement, and refuses.
func TestSandboxOnlyCallsGoOnlyToAnAnnouncedSandbox(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"deliveries":[],"eventId":"e1"}`))
	}))
	t.Cleanup(plain.Close)
	c := apiclient.New(apiclient.Config{BaseURL: plain.URL, ClientKey: "ck", SecretKey: "sk_test_0123456789"})
	ctx := context.Background()
	calls := map[string]func() error{
		"deliveries": func() error { _, err := c.WebhookDeliveries(ctx, "w1"); return err },
		"trigger":    func() error { _, err := c.SandboxTrigger(ctx, "card.activated", ""); return err },
		"resend":     func() error { _, err := c.SandboxResend(ctx, "e1", ""); return err },
		"logs":       func() error { return c.SandboxLogs(ctx, func(apiclient.SandboxLogEntry) error { return nil }) },
	}
	for name, call := range calls {
		if err := call(); !apiclient.IsNotSandbox(err) {
			t.Errorf("%s to a gateway that is not the sandbox: %v; want a refusal", name, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(paths) != 1 || paths[0] != "GET /v2/consent/onboarding/cardterm-is-this-the-sandbox" {
		t.Errorf("the plain gateway was sent %v; want only the question, a consent read", paths)
	}
}

// What the client knows of its gateway comes from how it was made and
// from answers: signed out with no client key it sends nothing to ask,
// signed in it asks with the bearer token GET /v1/webhooks requires, and
// a client made for the sandbox (the embedded one) never asks.
func TestAskingWhatTheGatewayIsKeepsToTheInterface(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" auth="+r.Header.Get("Authorization"))
		mu.Unlock()
		_, _ = w.Write([]byte(`[]`))
	}))
	t.Cleanup(plain.Close)
	ctx := context.Background()
	sent := func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), seen...) }

	bare := apiclient.New(apiclient.Config{BaseURL: plain.URL})
	if bare.AnnouncedSandbox(ctx) || len(sent()) != 0 || bare.KnowsGateway() {
		t.Fatalf("signed out without a client key the client asked: %v", sent())
	}
	signed := apiclient.New(apiclient.Config{BaseURL: plain.URL, ClientKey: "ck"})
	signed.SetSession(apiclient.Session{AccessToken: "at-0123456789"})
	if signed.AnnouncedSandbox(ctx) || !signed.KnowsGateway() {
		t.Fatal("a gateway that never announced itself was taken for the sandbox")
	}
	if got := sent(); len(got) != 1 || got[0] != "GET /v1/webhooks auth=Bearer at-0123456789" {
		t.Fatalf("signed in, the question was %v", got)
	}
	known := apiclient.New(apiclient.Config{BaseURL: plain.URL, ClientKey: "ck", Sandbox: true})
	if !known.AnnouncedSandbox(ctx) || len(sent()) != 1 {
		t.Fatalf("a client made for the sandbox asked: %v", sent())
	}
}

// The sandbox says what it is on every answer, and the sandbox-only
// calls go to it.
func TestTheSandboxAnnouncesItself(t *testing.T) {
	g, c := signedIn(t, "alice@demo.test")
	if !c.AnnouncedSandbox(context.Background()) {
		t.Fatal("the sandbox was not recognised by its answers")
	}
	hooks, err := c.Webhooks(context.Background())
	if err != nil || len(hooks) == 0 {
		t.Fatalf("webhooks: %v %v", hooks, err)
	}
	if _, err := c.WebhookDeliveries(context.Background(), hooks[0].ID); err != nil {
		t.Errorf("deliveries from the sandbox: %v", err)
	}
	resp, err := http.Get(g.url + "/v1/card/status")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Header.Get(sandbox.AnnounceHeader) != apiclient.SandboxHeaderValue || sandbox.AnnounceHeader != apiclient.SandboxHeader {
		t.Errorf("a refusal (%d) does not announce the sandbox: %v", resp.StatusCode, resp.Header)
	}
}

// A plain-http webhook url (a receiver on this machine) goes only to the
// sandbox: another gateway is never sent one, the interface wants HTTPS.
func TestPlainHTTPWebhookURLsGoToTheSandboxOnly(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(plain.Close)
	c := apiclient.New(apiclient.Config{BaseURL: plain.URL, ClientKey: "ck"})
	ctx := context.Background()
	_, err := c.CreateWebhook(ctx, apiclient.WebhookCreate{Name: "listener", URL: "http://127.0.0.1:9000/", EventTypes: []string{"card.activated"}})
	if !apiclient.IsNotSandbox(err) {
		t.Errorf("create with a plain-http url: %v; want a refusal", err)
	}
	url := "http://127.0.0.1:9000/"
	if _, err := c.UpdateWebhook(ctx, "0b7e0000-0000-4000-8000-000000000001", apiclient.WebhookUpdate{URL: &url}); !apiclient.IsNotSandbox(err) {
		t.Errorf("update to a plain-http url: %v; want a refusal", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range paths {
		if p != "GET /v2/consent/onboarding/cardterm-is-this-the-sandbox" {
			t.Errorf("the plain gateway was sent %s", p)
		}
	}

	_, sb := signedIn(t, "alice@demo.test")
	if _, err := sb.CreateWebhook(ctx, apiclient.WebhookCreate{Name: "listener", URL: "http://127.0.0.1:9000/", EventTypes: []string{"card.activated"}}); err != nil {
		t.Errorf("the sandbox refused a plain-http loopback url: %v", err)
	}
}
