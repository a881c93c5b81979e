package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"cardterm/apiclient"
	"cardterm/cli/clitest"
	"cardterm/sandbox/webhookreceiver"
)

const listenKey = "whsec_4f1c0e2d9b8a7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d"

// waitFor polls s until re matches, and returns the first submatch.
func waitFor(t *testing.T, what string, s func() string, re *regexp.Regexp) string {
	t.Helper()
	return clitest.WaitFor(t, what, s, re, 10*time.Second)
}

// listenInProcess is `cardterm listen` run in process (its cobra command
// in a goroutine), its output piped; e2e's listenBinary runs the binary.
type listenInProcess struct {
	url            string
	stdout, stderr *clitest.Buffer
	stop           func() error
}

// startListenInProcess runs the listen command with args until the test
// ends (or stop), once it says where it listens.
func startListenInProcess(t *testing.T, args ...string) *listenInProcess {
	t.Helper()
	cmd := newListenCommand()
	rl := &listenInProcess{stdout: &clitest.Buffer{}, stderr: &clitest.Buffer{}}
	cmd.SetOut(rl.stdout)
	cmd.SetErr(rl.stderr)
	cmd.SetIn(strings.NewReader(""))
	cmd.SetArgs(args)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- cmd.ExecuteContext(ctx) }()
	var stopped bool
	var stopErr error
	rl.stop = func() error {
		if !stopped {
			stopped = true
			cancel()
			select {
			case stopErr = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("listen did not stop")
			}
		}
		return stopErr
	}
	t.Cleanup(func() { _ = rl.stop() })
	rl.url = clitest.ListenURL(t, rl.stderr, 10*time.Second)
	return rl
}

// lines decodes the JSON lines printed so far, waiting until there are n.
func (rl *listenInProcess) lines(t *testing.T, n int) []deliveryLine {
	t.Helper()
	return clitest.ListenLines[deliveryLine](t, rl.stdout, n, 10*time.Second)
}

// deliver posts body with X-Timestamp/X-Signature built from ts and key;
// an empty ts or key leaves that header out.
func deliver(t *testing.T, url, key, ts, body string, extra ...string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if ts != "" {
		req.Header.Set(apiclient.WebhookTimestampHeader, ts)
	}
	if key != "" {
		req.Header.Set(apiclient.WebhookSignatureHeader, apiclient.SignWebhook(key, ts, []byte(body)))
	}
	for i := 0; i+1 < len(extra); i += 2 {
		req.Header.Set(extra[i], extra[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func nowTS(offset time.Duration) string { return strconv.FormatInt(time.Now().Add(offset).Unix(), 10) }

const frozenBody = `{"api_version":"v1","event_id":"evt_1","event_category":"card","event_type":"card.frozen","user_id":"u-1","event_object_id":"c-1","event_object":{"status":"FROZEN"},"occurred_at":"2026-03-01T12:00:00Z"}`

func TestListenChecksEveryDeliveryAndPrintsJSONLines(t *testing.T) {
	t.Setenv(webhookKeyEnv, listenKey)
	rl := startListenInProcess(t)
	if rl.stdout.String() != "" {
		t.Fatalf("piped stdout holds more than deliveries: %q", rl.stdout.String())
	}
	ts := nowTS(0)
	cases := []struct {
		name   string
		status int
		send   func() int
		reason string
	}{
		{"valid", 200, func() int { return deliver(t, rl.url, listenKey, ts, frozenBody) }, ""},
		{"replay", 401, func() int { return deliver(t, rl.url, listenKey, ts, frozenBody) }, "replay"},
		{"wrong key", 401, func() int { return deliver(t, rl.url, "whsec_not_this_webhooks_key", nowTS(0), frozenBody) }, "signature"},
		{"body changed", 401, func() int {
			req, _ := http.NewRequest(http.MethodPost, rl.url, strings.NewReader(strings.Replace(frozenBody, "FROZEN", "ACTIVE", 1)))
			req.Header.Set(apiclient.WebhookTimestampHeader, ts)
			req.Header.Set(apiclient.WebhookSignatureHeader, apiclient.SignWebhook(listenKey, ts, []byte(frozenBody)))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			return resp.StatusCode
		}, "signature"},
		{"old timestamp", 401, func() int { return deliver(t, rl.url, listenKey, nowTS(-10*time.Minute), frozenBody) }, "timestamp"},
		{"no signature", 401, func() int { return deliver(t, rl.url, "", nowTS(0), frozenBody) }, "malformed"},
		{"no timestamp", 401, func() int {
			return deliver(t, rl.url, "", "", frozenBody, apiclient.WebhookSignatureHeader, strings.Repeat("ab", 32))
		}, "malformed"},
		{"timestamp not unix seconds", 401, func() int { return deliver(t, rl.url, listenKey, "2026-03-01T12:00:00Z", frozenBody) }, "malformed"},
	}
	for i, tc := range cases {
		if got := tc.send(); got != tc.status {
			t.Errorf("%s: answered %d, want %d", tc.name, got, tc.status)
		}
		lines := rl.lines(t, i+1)
		d := lines[i]
		if d.Verified != (tc.reason == "") || d.Reason != tc.reason || d.Status != tc.status || d.Seq != int64(i+1) {
			t.Errorf("%s: line %+v", tc.name, d)
		}
		if tc.reason != "" && d.Detail == "" {
			t.Errorf("%s: no detail", tc.name)
		}
	}
	first := rl.lines(t, len(cases))[0]
	if first.EventType != "card.frozen" || first.EventID != "evt_1" || first.UserID != "u-1" || string(first.Body) != frozenBody ||
		first.Headers[apiclient.WebhookTimestampHeader][0] != ts {
		t.Fatalf("first line %+v", first)
	}
	if err := rl.stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rl.stderr.String(), "Stopped: 1 verified, 7 rejected.") {
		t.Fatalf("stderr %q", rl.stderr.String())
	}
}

func TestListenEscapesWhatADeliveryCouldDoToATerminal(t *testing.T) {
	t.Setenv(webhookKeyEnv, listenKey)
	rl := startListenInProcess(t)
	// Not JSON (raw control characters in a string): printed as bodyText.
	notJSON := "{\"event_id\":\"\x1b]52;c;cm0gLXJmIH4=\x07\",\"note\":\"\u0085\x7f\"}"
	deliver(t, rl.url, listenKey, nowTS(0), notJSON, "X-Evil", "a\u202eb")
	// Valid JSON may hold bidi and zero-width characters unescaped.
	valid := "{\"event_type\":\"card.frozen\u202e\u200b\"}"
	deliver(t, rl.url, listenKey, nowTS(0), valid)
	lines := rl.lines(t, 2)
	raw := rl.stdout.String()
	for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u200b", "\u0085", "\x7f"} {
		if strings.Contains(raw, bad) {
			t.Errorf("output holds %q raw: %q", bad, raw)
		}
	}
	for _, escaped := range []string{`\u001b`, `\u202e`, `\u200b`, `\u0085`, `\u007f`} {
		if !strings.Contains(raw, escaped) {
			t.Errorf("output lacks %s: %q", escaped, raw)
		}
	}
	if d := lines[0]; !d.Verified || d.BodyText == nil || *d.BodyText != notJSON || d.Headers["X-Evil"][0] != "a\u202eb" {
		t.Fatalf("the escaped line does not decode to what was sent: %+v", d)
	}
	var sent, printed any
	_ = json.Unmarshal([]byte(valid), &sent)
	_ = json.Unmarshal(lines[1].Body, &printed)
	if d := lines[1]; d.EventType != "card.frozen\u202e\u200b" || !reflect.DeepEqual(sent, printed) {
		t.Fatalf("the escaped line does not decode to what was sent: %+v", d)
	}
}

func TestListenForwardsHeadersAndBodyByteForByte(t *testing.T) {
	t.Setenv(webhookKeyEnv, listenKey)
	type got struct {
		header http.Header
		body   []byte
	}
	gotCh := make(chan got, 1)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotCh <- got{r.Header.Clone(), b}
		w.WriteHeader(http.StatusTeapot)
	}))
	defer target.Close()
	rl := startListenInProcess(t, "--forward-to", target.URL+"/hook")
	if !strings.Contains(rl.stderr.String(), "Forwarding verified deliveries to "+target.URL+"/hook") {
		t.Fatalf("stderr %q", rl.stderr.String())
	}
	body := "{\"event_type\" :\"card.frozen\",  \"b\":[1,2 ,3],\"é\":\"\\u00e9\"}"
	ts := nowTS(0)
	if status := deliver(t, rl.url, listenKey, ts, body, "User-Agent", "cardterm-sandbox-webhooks/1", "X-Trace", "abc"); status != 200 {
		t.Fatalf("answered %d", status)
	}
	g := <-gotCh
	if !bytes.Equal(g.body, []byte(body)) {
		t.Fatalf("forwarded body %q", g.body)
	}
	for _, h := range []string{apiclient.WebhookTimestampHeader, apiclient.WebhookSignatureHeader, "Content-Type", "User-Agent", "X-Trace"} {
		d := rl.lines(t, 1)[0]
		if g.header.Get(h) == "" || g.header.Get(h) != d.Headers[h][0] {
			t.Errorf("header %s forwarded as %q, received as %q", h, g.header.Get(h), d.Headers[h])
		}
	}
	if err := apiclient.VerifyWebhookSignature(listenKey, g.header.Get(apiclient.WebhookTimestampHeader),
		g.header.Get(apiclient.WebhookSignatureHeader), g.body, time.Now()); err != nil {
		t.Fatalf("the forwarded delivery no longer verifies: %v", err)
	}
	d := rl.lines(t, 1)[0]
	if d.Forward == nil || d.Forward.Status != http.StatusTeapot || d.Forward.URL != target.URL+"/hook" {
		t.Fatalf("forward %+v", d.Forward)
	}
}

func TestListenKeyComesFromTheEnvironmentOrAMaskedPrompt(t *testing.T) {
	t.Setenv(webhookKeyEnv, "")
	// No key and no terminal to ask on: a clear error naming the variable.
	cmd := newListenCommand()
	var stderr bytes.Buffer
	cmd.SetOut(io.Discard)
	cmd.SetErr(&stderr)
	cmd.SetIn(strings.NewReader(""))
	old := promptSecret
	t.Cleanup(func() { promptSecret = old })
	promptSecret = func(*cobra.Command, string) (string, error) { return "", errors.New("no terminal to ask on") }
	if err := cmd.Execute(); err == nil || !strings.Contains(err.Error(), webhookKeyEnv) {
		t.Fatalf("error %v", err)
	}
	// --key takes no value: it asks, even when the variable is set.
	t.Setenv(webhookKeyEnv, "whsec_from_the_environment_not_used")
	asked := 0
	promptSecret = func(_ *cobra.Command, prompt string) (string, error) {
		asked++
		if !strings.Contains(prompt, "signing key") {
			t.Errorf("prompt %q", prompt)
		}
		return listenKey, nil
	}
	rl := startListenInProcess(t, "--key")
	if asked != 1 {
		t.Fatalf("asked %d times", asked)
	}
	if status := deliver(t, rl.url, listenKey, nowTS(0), frozenBody); status != 200 {
		t.Fatalf("a delivery signed with the prompted key answered %d", status)
	}
	cmd = newListenCommand()
	cmd.SetArgs([]string{"--key=" + listenKey})
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	if err := cmd.Execute(); err == nil {
		t.Fatal("--key accepted a value")
	}
}

func TestDeliveryRowIsSanitizedAndSaysWhy(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.Local)
	row := ansi.Strip(deliveryRow(webhookreceiver.Delivery{ReceivedAt: at, EventType: "card.frozen\x1b[2J", EventID: "evt_1",
		Status: 401, Reason: webhookreceiver.ReasonSignature, Detail: "wrong key or body changed: the signature does not match"}))
	if strings.Contains(row, "\x1b") || !strings.Contains(row, "12:00:00  rejected  401") || !strings.Contains(row, "wrong key or body changed") ||
		!strings.Contains(row, "evt_1") {
		t.Fatalf("row %q", row)
	}
	row = ansi.Strip(deliveryRow(webhookreceiver.Delivery{ReceivedAt: at, EventType: "card.frozen", Verified: true, Status: 200,
		Forward: &webhookreceiver.ForwardResult{Status: 500, Duration: 12 * time.Millisecond}}))
	if !strings.Contains(row, "verified  200  card.frozen") || !strings.Contains(row, "→ 500 Internal Server Error in 12ms") {
		t.Fatalf("row %q", row)
	}
	row = ansi.Strip(deliveryRow(webhookreceiver.Delivery{ReceivedAt: at, Verified: true, Status: 200,
		Forward: &webhookreceiver.ForwardResult{Error: "connection refused"}}))
	if !strings.Contains(row, "(no event_type)") || !strings.Contains(row, "forward failed: connection refused") {
		t.Fatalf("row %q", row)
	}
}
