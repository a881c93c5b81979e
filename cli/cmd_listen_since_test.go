package cli

import (
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// sandboxTools is a client of the sandbox tools (secret key included).
func sandboxTools(url string) *apiclient.Client {
	return apiclient.New(apiclient.Config{BaseURL: url, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
}

// triggerEvent sends a test event about alice and returns its id.
func triggerEvent(t *testing.T, tools *apiclient.Client, eventType string) string {
	t.Helper()
	ev, err := tools.SandboxTriggerEvent(context.Background(), apiclient.SandboxTriggerRequest{EventType: eventType, User: "alice@demo.test"})
	if err != nil {
		t.Fatal(err)
	}
	return ev.EventID
}

// listen was stopped while three events were sent: listen --since 5m
// delivers those three first, in order, then a fourth one live.
func TestListenSinceDeliversWhatItMissedInOrderThenGoesLive(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	t.Setenv(webhookKeyEnv, "")
	tools := sandboxTools(gw.URL)
	first := startListenInProcess(t, "--base-url", gw.URL)
	waitFor(t, "stderr", first.stderr.String, regexp.MustCompile(`Ready!`))
	if err := first.stop(); err != nil {
		t.Fatal(err)
	}
	var missed []string
	for _, eventType := range []string{"card.frozen", "card.unfrozen", "kyc.status.changed"} {
		missed = append(missed, triggerEvent(t, tools, eventType))
	}

	rl := startListenInProcess(t, "--base-url", gw.URL, "--since", "5m")
	waitFor(t, "stderr", rl.stderr.String, regexp.MustCompile(`Ready!`))
	if !strings.Contains(rl.stderr.String(), "Delivered 3 missed event(s) since 5m, in order; now live.") {
		t.Fatalf("stderr:\n%s", rl.stderr.String())
	}
	live := triggerEvent(t, tools, "card.frozen")
	lines := rl.lines(t, 4)
	for i, want := range append(missed, live) {
		if lines[i].EventID != want || !lines[i].Verified {
			t.Fatalf("line %d: %+v, want event %s", i, lines[i], want)
		}
	}
}

func TestListenSinceNeedsTheSandboxWebhook(t *testing.T) {
	t.Setenv(webhookKeyEnv, "whsec_0123456789abcdef0123456789abcdef")
	cmd := newListenCommand()
	cmd.SetArgs([]string{"--since", "5m"})
	var out strings.Builder
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	err := cmd.Execute()
	if exitCodeFor(err) != exitUsage || !strings.Contains(err.Error(), "--since replays the sandbox's event history") {
		t.Fatalf("%v", err)
	}
}

// A pending authorization, then the sandbox clock 8 days on: the reversal
// event reaches listen, verified, and listen says the sandbox's time.
func TestClockExpiresAnAuthorizationIntoAReversalThatReachesListen(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	t.Setenv(webhookKeyEnv, "")
	tools := sandboxTools(gw.URL)
	auth, err := tools.SandboxSimulate(context.Background(), apiclient.SimulateRequest{Type: "authorization", User: "alice@demo.test", Amount: "40.00"})
	if err != nil {
		t.Fatal(err)
	}
	rl := startListenInProcess(t, "--base-url", gw.URL)
	waitFor(t, "stderr", rl.stderr.String, regexp.MustCompile(`Ready!`))
	out, errOut, code := runCLI(t, "sandbox", "clock", "+8d", "--base-url", gw.URL)
	if code != 0 || !strings.Contains(out, "8 days ahead of the wall clock") || !strings.Contains(out, "1 pending authorization(s), reversed") {
		t.Fatalf("clock +8d: exit %d\n%s%s", code, out, errOut)
	}
	lines := rl.lines(t, 1)
	if lines[0].EventType != "transaction.reversed" || !lines[0].Verified || !strings.Contains(string(lines[0].Body), auth.Transaction.ID) {
		t.Fatalf("listen got %+v", lines[0])
	}

	again := startListenInProcess(t, "--base-url", gw.URL, "--addr", "127.0.0.1:0")
	waitFor(t, "stderr", again.stderr.String, regexp.MustCompile(`Ready!`))
	if !regexp.MustCompile(`Sandbox time \S+ \S+ UTC: 8 days ahead of the wall clock`).MatchString(again.stderr.String()) {
		t.Fatalf("listen does not say the sandbox's time:\n%s", again.stderr.String())
	}
}
