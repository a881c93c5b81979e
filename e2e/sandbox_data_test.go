package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/cli/clitest"
	"cardterm/sandbox"
)

// sandboxProcess is `cardterm sandbox` running as a process of its own.
type sandboxProcess struct {
	cmd    *exec.Cmd
	out    *clitest.Buffer
	url    string
	exited chan struct{}
}

// baseURLLine finds the address `cardterm sandbox` prints.
var baseURLLine = regexp.MustCompile(`Base URL\s+(http://\S+)`)

// startSandboxProcess starts the binary's sandbox with args on a free
// port and waits until it serves; the test kills it when it ends.
func startSandboxProcess(t *testing.T, args ...string) *sandboxProcess {
	t.Helper()
	p := &sandboxProcess{out: &clitest.Buffer{}, exited: make(chan struct{})}
	p.cmd = binaryCommand(t, append([]string{"sandbox", "--addr", "127.0.0.1:0"}, args...)...)
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(p.kill)
	deadline := time.Now().Add(e2eWait)
	for !strings.Contains(p.out.String(), "Press ctrl+c to stop.") {
		select {
		case <-p.exited:
			t.Fatalf("cardterm sandbox exited:\n%s", p.out)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("cardterm sandbox did not start:\n%s", p.out)
		}
	}
	p.url = baseURLLine.FindStringSubmatch(p.out.String())[1]
	return p
}

// kill ends the process with SIGKILL, as a crash or kill -9 would.
func (p *sandboxProcess) kill() {
	_ = p.cmd.Process.Kill()
	<-p.exited
}

// signedIn is a client of the process signed in as username.
func (p *sandboxProcess) signedIn(t *testing.T, username string) *apiclient.Client {
	t.Helper()
	c := apiclient.New(apiclient.Config{BaseURL: p.url, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	if _, err := c.Login(context.Background(), username, "demo-pass"); err != nil {
		t.Fatalf("sign-in as %s: %v", username, err)
	}
	return c
}

func TestSandboxDataSurvivesKill9(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	ctx := context.Background()
	first := startSandboxProcess(t, "--data", dir)
	if !strings.Contains(first.out.String(), "kept in "+filepath.Join(dir, sandbox.StoreFile)) {
		t.Fatalf("the banner does not say where the state is kept:\n%s", first.out)
	}
	alice := first.signedIn(t, "alice@demo.test")
	if err := alice.FreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	const address = "0x2222222222222222222222222222222222222222"
	if err := alice.AddWhitelist(ctx, []apiclient.NewWhitelistEntry{{Currency: "usdc", Name: "Survivor",
		BeneficiaryFirstName: "Ada", BeneficiaryLastName: "Lovelace", WalletAddress: address}}); err != nil {
		t.Fatal(err)
	}
	hook, err := alice.CreateWebhook(ctx, apiclient.WebhookCreate{Name: "Survives kill -9",
		URL: "https://hooks.example.test/in", EventTypes: []string{"card.frozen"}, IsActive: true})
	if err != nil {
		t.Fatal(err)
	}
	first.kill()

	second := startSandboxProcess(t, "--data", dir)
	alice = second.signedIn(t, "alice@demo.test")
	if card, err := alice.CardStatus(ctx); err != nil || card.Status != "FROZEN" {
		t.Fatalf("alice's card after kill -9 and a restart: %+v, %v; want FROZEN", card, err)
	}
	entries, err := alice.Whitelist(ctx, "usdc")
	if err != nil || !containsEntry(entries, address) {
		t.Fatalf("whitelist after the restart: %+v, %v; want the entry added before kill -9", entries, err)
	}
	hooks, err := alice.Webhooks(ctx)
	if err != nil || !containsHook(hooks, hook.ID) {
		t.Fatalf("webhooks after the restart: %+v, %v; want %s", hooks, err, hook.ID)
	}
	second.kill()

	// Export, reset, import: the fixture brings the same state back.
	fixture := filepath.Join(t.TempDir(), "fixture.json")
	cardterm(t, nil, "sandbox", "export", fixture, "--data", dir)
	if out := cardterm(t, nil, "sandbox", "reset", "--data", dir); !strings.Contains(out, "starts from its seed") {
		t.Fatalf("reset said:\n%s", out)
	}
	third := startSandboxProcess(t, "--data", dir)
	if card, err := third.signedIn(t, "alice@demo.test").CardStatus(ctx); err != nil || card.Status != "ACTIVE" {
		t.Fatalf("alice's card after reset: %+v, %v; want the seed's ACTIVE", card, err)
	}
	third.kill()
	cardterm(t, nil, "sandbox", "import", fixture, "--data", dir)
	fourth := startSandboxProcess(t, "--data", dir)
	alice = fourth.signedIn(t, "alice@demo.test")
	if card, err := alice.CardStatus(ctx); err != nil || card.Status != "FROZEN" {
		t.Fatalf("alice's card after import: %+v, %v; want FROZEN", card, err)
	}
	if hooks, err := alice.Webhooks(ctx); err != nil || !containsHook(hooks, hook.ID) {
		t.Fatalf("webhooks after import: %+v, %v", hooks, err)
	}
}

func containsEntry(entries []apiclient.WhitelistEntry, address string) bool {
	for _, e := range entries {
		if e.WalletAddress == address {
			return true
		}
	}
	return false
}

func containsHook(hooks []apiclient.Webhook, id string) bool {
	for _, h := range hooks {
		if h.ID == id {
			return true
		}
	}
	return false
}

func TestSandboxDataRefusesForeignAndCorruptFiles(t *testing.T) {
	for name, content := range map[string][]byte{
		"foreign": append([]byte("SQLite format 3\x00"), bytes.Repeat([]byte{0}, 8192)...),
		"corrupt": bytes.Repeat([]byte("not a database "), 1000),
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, sandbox.StoreFile)
		if err := os.WriteFile(path, content, 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := binaryCommand(t, "sandbox", "--addr", "127.0.0.1:0", "--data", dir)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != exitRefused {
			t.Fatalf("%s: exit %v, want %d; output:\n%s", name, err, exitRefused, out)
		}
		if !strings.Contains(string(out), path) || !strings.Contains(string(out), "refusing to use or overwrite it") {
			t.Fatalf("%s: the message does not say which file and why:\n%s", name, out)
		}
		if got, _ := os.ReadFile(path); !bytes.Equal(got, content) {
			t.Fatalf("%s: the refused file was changed", name)
		}
	}
}

// eventLine finds the event id `sandbox trigger` prints.
var eventLine = regexp.MustCompile(`\(event ([0-9a-f-]+)`)

func TestSandboxTriggerOverrideAndResend(t *testing.T) {
	got := make(chan map[string]any, 8)
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var ev map[string]any
		_ = json.Unmarshal(b, &ev)
		got <- ev
	}))
	defer receiver.Close()
	receive := func() map[string]any {
		t.Helper()
		select {
		case ev := <-got:
			return ev
		case <-time.After(e2eWait):
			t.Fatal("no delivery reached the receiver")
		}
		return nil
	}
	dir := t.TempDir()
	sb := startSandboxProcess(t, "--data", dir)
	if _, err := sb.signedIn(t, "alice@demo.test").CreateWebhook(context.Background(), apiclient.WebhookCreate{Name: "Receiver",
		URL: receiver.URL + "/hook", EventTypes: []string{"card.frozen"}, IsActive: true}); err != nil {
		t.Fatal(err)
	}
	fixture := filepath.Join(t.TempDir(), "frozen.json")
	if err := os.WriteFile(fixture, []byte(`{"event_type":"card.frozen","event_object_id":"card-from-fixture"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out := cardterm(t, nil, "sandbox", "trigger", "--fixture", fixture, "--base-url", sb.url,
		"--override", "event_object.status=FROZEN", "--override", "event_object.reason.code=lost", "--override", "event_object.limit=250")
	id := eventLine.FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("trigger said:\n%s", out)
	}
	first := receive()
	object, _ := first["event_object"].(map[string]any)
	if first["event_id"] != id[1] || first["event_object_id"] != "card-from-fixture" || object["status"] != "FROZEN" ||
		object["limit"] != 250.0 || object["reason"].(map[string]any)["code"] != "lost" {
		t.Fatalf("delivered %v", first)
	}

	// The delivery is kept in the data directory: after kill -9 and a
	// restart, the same event goes out again.
	sb.kill()
	sb = startSandboxProcess(t, "--data", dir)
	if out := cardterm(t, nil, "sandbox", "resend", id[1], "--base-url", sb.url); !strings.Contains(out, "Resent card.frozen (event "+id[1]) {
		t.Fatalf("resend said:\n%s", out)
	}
	again := receive()
	a, _ := json.Marshal(first)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Fatalf("resent\n %s\nfirst\n %s", b, a)
	}
}

func TestSandboxLogsFollowsTheAnsweredRequests(t *testing.T) {
	sb := startSandboxProcess(t)
	logs := binaryCommand(t, "sandbox", "logs", "--base-url", sb.url)
	out := &clitest.Buffer{}
	logs.Stdout, logs.Stderr = out, out
	if err := logs.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- logs.Wait() }()
	// Sign in until a sign-in shows: the stream starts a moment after the
	// command does.
	deadline := time.Now().Add(e2eWait)
	for !strings.Contains(out.String(), `"path":"/v1/auth/login"`) {
		sb.signedIn(t, "alice@demo.test")
		time.Sleep(50 * time.Millisecond)
		if time.Now().After(deadline) {
			t.Fatalf("no sign-in in the log:\n%s", out)
		}
	}
	line := ""
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, "/v1/auth/login") {
			line = l
			break
		}
	}
	var entry map[string]any
	if err := json.Unmarshal([]byte(line), &entry); err != nil {
		t.Fatalf("piped, a log line is not JSON: %q", line)
	}
	if entry["method"] != "POST" || entry["status"] != 200.0 || entry["tenant"] != "acme/sandbox/eu" || entry["time"] == "" {
		t.Fatalf("log line %s", line)
	}
	if strings.Contains(out.String(), "demo-pass") || strings.Contains(out.String(), sandbox.DemoSecretKey) {
		t.Fatalf("a secret in the log:\n%s", out)
	}
	_ = logs.Process.Signal(os.Interrupt)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("ctrl+c ended logs with %v:\n%s", err, out)
		}
	case <-time.After(e2eWait):
		t.Fatal("logs did not stop on ctrl+c")
	}
}

func TestSandboxLogsOnATerminal(t *testing.T) {
	sb := startSandboxProcess(t)
	tm := startTerm(t, nil, "sandbox", "logs", "--base-url", sb.url)
	deadline := time.Now().Add(e2eWait)
	for !strings.Contains(tm.screen(), "/v1/auth/login") {
		sb.signedIn(t, "alice@demo.test")
		time.Sleep(100 * time.Millisecond)
		if time.Now().After(deadline) {
			t.Fatalf("no sign-in on the terminal:\n%s", tm.screen())
		}
	}
	screen := tm.waitFor("POST", "200 /v1/auth/login", "acme/sandbox/eu")
	if strings.Contains(screen, `"method"`) {
		t.Fatalf("a terminal gets lines, not JSON:\n%s", screen)
	}
}
