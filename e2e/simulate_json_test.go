package e2e

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// `sandbox simulate --json` prints the sandbox's answer itself (every
// field it sent, in its order, none added), indented as every other
// --json output is; a scenario prints one answer after another, which jq
// reads as a stream.
func TestSimulateJSONIsTheAnswerIndented(t *testing.T) {
	gw := httptest.NewServer(sandbox.New(sandbox.Options{}))
	defer gw.Close()
	out, errOut, code := sealedRun(t, nil, "sandbox", "simulate", "authorization", "--json",
		"--base-url", gw.URL, "--user", "alice@demo.test", "--amount", "4.20")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var compact, indented bytes.Buffer
	if err := json.Compact(&compact, []byte(out)); err != nil {
		t.Fatalf("not one JSON value: %v\n%s", err, out)
	}
	_ = json.Indent(&indented, compact.Bytes(), "", "  ")
	if out != indented.String()+"\n" {
		t.Fatalf("not indented as the other --json outputs:\n%s", out)
	}
	var answer struct {
		Transaction map[string]any `json:"transaction"`
		EventType   string         `json:"eventType"`
	}
	if err := json.Unmarshal([]byte(out), &answer); err != nil {
		t.Fatal(err)
	}
	// dateTime and mcc are in the sandbox's record, not in the fields
	// cardterm reads; Raw would be cardterm's own.
	if answer.Transaction["dateTime"] == nil || answer.Transaction["mcc"] == nil || answer.Transaction["transactionAmount"] != "4.20" ||
		answer.EventType != "transaction.authorized" || strings.Contains(out, `"Raw"`) {
		t.Fatalf("not the sandbox's answer:\n%s", out)
	}
}
