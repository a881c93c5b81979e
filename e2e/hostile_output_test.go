//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// Every command that prints what a gateway, a file or a jq or template
// program made, run on a terminal against a gateway that puts escape
// sequences in every string field and map key of every answer: nothing
// of them reaches the terminal, on stdout or stderr.
func TestHostileGatewayReachesNoTerminal(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	hostile := newHostileGateway(t, sb.URL, false)
	remote := []string{"--base-url", hostile, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox"}
	tenant := []string{"--base-url", hostile}
	badScenario := filepath.Join(t.TempDir(), "bad.yaml")
	if err := os.WriteFile(badScenario, []byte(`steps:
  - type: authorization
    "x\e]0;PWN-title\a\e]52;c;UFdO\a\e[7;31;5mPWN-red\u009b7;31;5m\u202ePWN": 1
`), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := [][]string{
		{"get", "user"}, {"get", "card"}, {"get", "transactions"}, {"get", "whitelist", "EUR"},
		{"get", "chain-config"}, {"get", "products"}, {"get", "order", "o-1"}, {"get", "webhooks"},
		{"get", "webhook", "w-1"}, {"get", "consent", "u-1"}, {"get", "audit", "u-1"},
		{"get", "consent-set", "c-1"}, {"get", "onboarding", "o-1"}, {"get", "wallets"},
		{"get", "user", "--json"}, {"get", "card", "--jq", ".[]"},
		{"get", "transactions", "--all"}, {"get", "transactions", "--all", "--format", "csv"},
		{"get", "transactions", "--format", "jsonl"}, {"get", "transactions", "--since", "2020-01-01"},
		{"api", "/v1/user"}, {"api", "/v1/card/status"}, {"api", "/v1/nope"},
		{"api", "/v1/user", "--template", "{{range $k, $v := .}}{{$k}}={{$v}} {{end}}"},
		{"api", "/v1/user", "--jq", "error(.email)"}, {"api", "/v1/user", "--jq", ".email | halt_error"},
		{"api", "/v1/user", "--jq", ".email"}, {"api", "/v1/user", "--jq", "keys"},
	}
	for _, args := range cases {
		out, code := runOnTerminal(t, alice, append(args, remote...)...)
		if leaks := payloadLeaks(out); len(leaks) > 0 {
			t.Errorf("%s (exit %d): %s reached the terminal:\n%q", strings.Join(args, " "), code, strings.Join(leaks, ", "), out)
		}
	}
	// Answers that still parse: the currency and the dates of a statement
	// reach its progress and summary lines.
	parsed := []string{"--base-url", newHostileGateway(t, sb.URL, true), "--client-key", sandbox.DemoClientKey, "--environment", "sandbox"}
	for _, args := range [][]string{
		{"get", "transactions", "--all"}, {"get", "transactions", "--all", "--format", "csv"},
		{"get", "transactions", "--since", "2020-01-01", "--format", "csv"}, {"get", "card"},
	} {
		out, code := runOnTerminal(t, alice, append(args, parsed...)...)
		if leaks := payloadLeaks(out); len(leaks) > 0 {
			t.Errorf("%s, parseable (exit %d): %s reached the terminal:\n%q", strings.Join(args, " "), code, strings.Join(leaks, ", "), out)
		}
	}
	for _, args := range [][]string{
		{"sandbox", "simulate", "authorization", "--user", "alice@demo.test", "--amount", "12.50"},
		{"sandbox", "simulate", "decline", "--user", "alice@demo.test", "--amount", "12.50"},
		{"sandbox", "simulate", "clearing", "--user", "alice@demo.test", "--amount", "12.50"},
		{"sandbox", "simulate", "authorization", "--user", "alice@demo.test", "--amount", "1", "--json"},
		{"sandbox", "simulate", "--scenario", badScenario},
	} {
		out, code := runOnTerminal(t, nil, append(args, tenant...)...)
		if leaks := payloadLeaks(out); len(leaks) > 0 {
			t.Errorf("%s (exit %d): %s reached the terminal:\n%q", strings.Join(args, " "), code, strings.Join(leaks, ", "), out)
		}
	}
}
