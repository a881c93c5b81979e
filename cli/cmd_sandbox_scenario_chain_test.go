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

// A scenario chains the new kinds and moves the clock: an increment and
// two partial clearings of a hotel, a reversal, an ATM withdrawal, and a
// hold that expires when the clock moves 8 days.
func TestScenarioChainsTheKindsAndTheClock(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	file := filepath.Join(t.TempDir(), "kinds.yaml")
	if err := os.WriteFile(file, []byte(`user: alice@demo.test
steps:
  - {type: authorization, name: hotel, amount: 200}
  - {type: increment, authorization: hotel, amount: 35.50}
  - {type: clearing, authorization: hotel, amount: 150}
  - {type: clearing, authorization: hotel}
  - {type: authorization, name: taxi, amount: 18}
  - {type: reversal, authorization: taxi}
  - {type: atm, amount: 100, currency: CHF}
  - {type: clearing}
  - {type: authorization, amount: 9.99}
  - {type: clock, advance: 8d}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := newSandboxSimulateCommand()
	var out, errOut bytes.Buffer
	cmd.SetOut(&out)
	cmd.SetErr(&errOut)
	cmd.SetArgs([]string{"--scenario", file, "--base-url", gw.URL})
	if err := cmd.Execute(); err != nil {
		t.Fatalf("%v\n%s%s", err, out.String(), errOut.String())
	}
	for _, want := range []string{"Incremental_authorization ", "DEBIT 35.50 EUR", "Clearing ", "DEBIT 150.00 EUR", "DEBIT 85.50 EUR",
		"Reversal ", "CREDIT 18.00 EUR", "transaction.reversed", "DEBIT 100.00 CHF at ATM Sandbox Bank"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the scenario's output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errOut.String(), "clock +8d: the sandbox's time is") || !strings.Contains(errOut.String(), "1 pending authorization(s) expired") {
		t.Fatalf("stderr:\n%s", errOut.String())
	}
}

func TestScenarioClockStepMistakes(t *testing.T) {
	for text, want := range map[string]string{
		"steps:\n  - {type: clock}\n":                                 "advance",
		"steps:\n  - {type: clock, advance: soon}\n":                  "advance \"soon\"",
		"steps:\n  - {type: authorization, amount: 1, advance: 8d}\n": "advance is for a step of type clock",
	} {
		if _, err := parseScenario("s.yaml", []byte(text)); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "s.yaml:") {
			t.Errorf("%q: %v", text, err)
		}
	}
}
