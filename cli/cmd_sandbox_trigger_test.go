package cli

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// TestTriggerReachesListenThroughTheSandbox is the partner's loop in one
// process: a webhook on the sandbox points at `cardterm listen`; `cardterm
// sandbox trigger` and a real freeze both arrive there verified.
func TestTriggerReachesListenThroughTheSandbox(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	client := apiclient.New(apiclient.Config{BaseURL: gw.URL, ClientKey: sandbox.DemoClientKey})
	ctx := context.Background()
	if _, err := client.Login(ctx, "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	// The configuration needs the listener's URL and the listener needs
	// the configuration's key: reserve a free port for the listener first.
	probe := httptest.NewServer(nil)
	addr := strings.TrimPrefix(probe.URL, "http://")
	probe.Close()
	hook, err := client.CreateWebhook(ctx, apiclient.WebhookCreate{Name: "cardterm listen", URL: "http://" + addr + "/",
		EventTypes: []string{"card.frozen", "partner.test"}, IsActive: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(webhookKeyEnv, hook.APIKey)
	rl := startListenInProcess(t, "--addr", addr)

	cmd := newSandboxTriggerCommand()
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetArgs([]string{"partner.test", "--user", "alice@demo.test", "--base-url", gw.URL})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "Sent partner.test") || !strings.Contains(stdout.String(), "cardterm listen  http://"+addr+"/") {
		t.Fatalf("trigger said %q", stdout.String())
	}
	if err := client.FreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	lines := rl.lines(t, 2)
	types := map[string]bool{}
	for _, l := range lines {
		if !l.Verified || l.Status != 200 || l.UserID != sandbox.DemoUserID("alice@demo.test") {
			t.Fatalf("line %+v", l)
		}
		types[l.EventType] = true
	}
	if !types["partner.test"] || !types["card.frozen"] {
		t.Fatalf("types %v", types)
	}
}

func TestTriggerExplainsWhatWentWrong(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	run := func(args ...string) (string, error) {
		cmd := newSandboxTriggerCommand()
		var stdout bytes.Buffer
		cmd.SetOut(&stdout)
		cmd.SetErr(&stdout)
		cmd.SetArgs(args)
		err := cmd.Execute()
		return stdout.String(), err
	}
	if out, err := run("card.unfrozen", "--base-url", gw.URL); err != nil || !strings.Contains(out, "No active webhook is subscribed to card.unfrozen") {
		t.Fatalf("%v %q", err, out)
	}
	if _, err := run("Card Frozen", "--base-url", gw.URL); err == nil || !strings.Contains(err.Error(), "invalid event type") {
		t.Fatalf("bad type: %v", err)
	}
	if _, err := run("card.frozen", "--user", "nobody", "--base-url", gw.URL); err == nil || !strings.Contains(err.Error(), "User not found") {
		t.Fatalf("unknown user: %v", err)
	}
	t.Setenv(secretKeyEnv, "sk_wrong")
	if _, err := run("card.frozen", "--base-url", gw.URL); err == nil {
		t.Fatal("a wrong secret key was accepted")
	}
	if _, err := run(); err == nil {
		t.Fatal("no event type accepted")
	}
}
