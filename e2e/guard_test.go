package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
	"cardterm/ui/uitest"
)

// dataHome is the test's XDG_DATA_HOME (uitest.TestEnv).
func dataHome(t *testing.T) string {
	t.Helper()
	for _, kv := range uitest.TestEnv(t) {
		if v, ok := strings.CutPrefix(kv, "XDG_DATA_HOME="); ok {
			return v
		}
	}
	t.Fatal("no XDG_DATA_HOME in the test's environment")
	return ""
}

// writeHolderFile writes a file of the default profile's holder folder.
func writeHolderFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(dataHome(t), "cardterm", "holder", "default", name)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// countRequests counts the sandbox's requests of a method and path.
func countRequests(sb *sandbox.Running, method, path string) int {
	n := 0
	for _, r := range sb.Server.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

// waitRequests waits until the sandbox has had at least n of a request.
func waitRequests(t *testing.T, sb *sandbox.Running, method, path string, n int) {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for countRequests(sb, method, path) < n {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %d × %s %s", n, method, path)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

const abroadDeclinesRule = `home: FR
rules:
  - name: freeze on declines abroad
    declines: 2
    within: 10m
    abroad: true
    action: freeze
    alone: true
`

// TestGuardFreezesOnceOnTwoDeclinesAbroadE2E: `cardterm guard` with the
// rule "freeze when 2 declines abroad within 10 minutes": two simulated
// declines abroad freeze the card with exactly one POST /v1/card/freeze;
// a third sends nothing more; the dry run lists what it would have done;
// with --read-only the rule only notifies; a malformed file is refused
// with its line and field.
func TestGuardFreezesOnceOnTwoDeclinesAbroadE2E(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	gateway := []string{"--base-url", sb.URL, "--client-key", sandbox.DemoClientKey}
	holder := []string{"CARDTERM_USERNAME=alice@demo.test", "CARDTERM_PASSWORD=demo-pass"}

	writeHolderFile(t, "guard.yaml", strings.Replace(abroadDeclinesRule, "within: 10m", "within: ten minutes", 1))
	_, errOut, code := sealedRun(t, holder, append([]string{"guard"}, gateway...)...)
	if code != exitUsage || !strings.Contains(errOut, "guard.yaml:5: rules[0].within: must be a duration") {
		t.Fatalf("a malformed rule file: exit %d: %s", code, errOut)
	}
	writeHolderFile(t, "guard.yaml", abroadDeclinesRule)

	decline := func(merchant string) {
		t.Helper()
		out, errOut, code := sealedRun(t, nil, append([]string{"sandbox", "simulate", "decline", "--user", "alice@demo.test",
			"--amount", "20", "--currency", "USD", "--merchant", merchant}, gateway...)...)
		if code != 0 {
			t.Fatalf("simulate decline: %d %s%s", code, out, errOut)
		}
	}
	run := func(readOnly bool) *tmuxTerm {
		args := append([]string{"guard", "--interval", "2s"}, gateway...)
		if readOnly {
			args = append(args, "--read-only")
		}
		before := countRequests(sb, "GET", "/v1/card/transactions")
		tm := startTerm(t, holder, args...)
		// The pane stays after guard ends, to read what it said last.
		if out, err := exec.Command("tmux", "-S", tm.socket, "set-option", "-t", "0", "remain-on-exit", "on").CombinedOutput(); err != nil {
			t.Fatalf("tmux set-option: %v: %s", err, out)
		}
		tm.waitFor("Guarding with 1 rules")
		waitRequests(t, sb, "GET", "/v1/card/transactions", before+1) // the first read only learns
		return tm
	}

	tm := run(false)
	decline("Apple Store, New York US")
	decline("Carrefour City, Paris FR") // at home: not counted
	decline("Apple Store, New York US")
	tm.waitFor("freeze on declines abroad: froze the card")
	reads := countRequests(sb, "GET", "/v1/card/transactions")
	decline("Apple Store, New York US")
	waitRequests(t, sb, "GET", "/v1/card/transactions", reads+2)
	if n := countRequests(sb, "POST", "/v1/card/freeze"); n != 1 {
		t.Fatalf("%d POST /v1/card/freeze, want exactly 1:\n%s", n, tm.screen())
	}
	tm.send("C-c")
	tm.waitFor("Stopped: 1 actions.")

	out, errOut, code := sealedRun(t, holder, append([]string{"guard", "--dry-run"}, gateway...)...)
	if code != 0 || !strings.Contains(out, "freeze on declines abroad: would freeze  20.00 USD Apple Store, New York US (2 declines within 10m0s)") {
		t.Fatalf("dry run: exit %d:\n%s%s", code, out, errOut)
	}

	ro := run(true)
	decline("Apple Store, New York US")
	decline("Apple Store, New York US")
	ro.waitFor("freeze on declines abroad: notified", "read-only mode: would freeze the card")
	if n := countRequests(sb, "POST", "/v1/card/freeze"); n != 1 {
		t.Fatalf("read-only sent a freeze: %d POST /v1/card/freeze", n)
	}
	log, err := os.ReadFile(filepath.Join(dataHome(t), "cardterm", "holder", "default", "guard-actions.jsonl"))
	if err != nil || strings.Count(string(log), "\n") != 2 || !strings.Contains(string(log), `"outcome":"froze the card"`) {
		t.Fatalf("the action log: %v\n%s", err, log)
	}
}
