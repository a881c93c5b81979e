package cli

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox"
)

func TestScenarioPlaysItsStepsInOrderWithNames(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	file := filepath.Join(t.TempDir(), "demo.yaml")
	if err := os.WriteFile(file, []byte(`user: alice@demo.test
steps:
  - type: authorization
    name: coffee
    amount: 12.50
    merchant: Coffee Corner
    mcc: "5814"
  - type: authorization
    name: lunch
    amount: 20
  - type: clearing
    authorization: coffee
    after: 10ms
  - type: refund
    authorization: coffee
    amount: 2.5
  - type: decline
    user: nobody@demo.test
    amount: 99
`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := newSandboxSimulateCommand()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs([]string{"--scenario", file, "--base-url", gw.URL})
	err := cmd.Execute()
	lines := strings.Split(out.String(), "\n")
	var summaries []string
	for _, l := range lines {
		if l != "" && !strings.HasPrefix(l, " ") {
			summaries = append(summaries, l)
		}
	}
	// The decline names a user the tenant does not have: the scenario stops there, naming the step and its line.
	if err == nil || !strings.Contains(err.Error(), "demo.yaml:17: step 5 (decline): User not found") {
		t.Fatalf("error %v; out:\n%s", err, out.String())
	}
	if len(summaries) != 4 || !strings.HasPrefix(summaries[0], "Authorization ") || !strings.HasPrefix(summaries[2], "Clearing ") ||
		!strings.HasPrefix(summaries[3], "Refund ") || !strings.Contains(summaries[3], "CREDIT 2.50 EUR at Coffee Corner") {
		t.Fatalf("summaries:\n%s", strings.Join(summaries, "\n"))
	}
	coffee := strings.Fields(summaries[0])[1]
	coffee = strings.TrimSuffix(coffee, ":")
	if !strings.Contains(summaries[2], "of authorization "+coffee) || !strings.Contains(summaries[3], "of authorization "+coffee) {
		t.Fatalf("the clearing and refund do not refer to the coffee (%s):\n%s", coffee, strings.Join(summaries, "\n"))
	}
	if !strings.Contains(errOut.String(), "waiting 10ms before step 3") {
		t.Fatalf("stderr %q", errOut.String())
	}
}

func TestScenarioMistakesAreNamedWithTheirLine(t *testing.T) {
	for yaml, want := range map[string]string{
		"steps: []":                   "no steps",
		"steps:\n  - type: capture\n": "s.yaml:2: step 1: type \"capture\" must be one of",
		"steps:\n  - type: clearing\n    after: soon\n":                                                          "s.yaml:2: step 1: after \"soon\" must be a duration",
		"steps:\n  - type: refund\n    amout: 3\n":                                                               "field amout not found",
		"steps:\n  - {type: authorization, name: a, amount: 1}\n  - {type: authorization, name: a, amount: 1}\n": `s.yaml:3: step 2: the name "a" is given to an earlier step`,
		"steps: [": "s.yaml: ",
	} {
		_, err := parseScenario("s.yaml", []byte(yaml))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", yaml, err, want)
		}
	}
}
