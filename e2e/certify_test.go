package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox/webhookprobe"
)

// The two faulty receivers of webhook probe's tests fail the checks they
// should, by name; a correct receiver passes every one; the report's hash
// matches its content, in the Markdown and the JSON.
func TestCertifyJudgesEachReceiver(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		checkSignature, checkReplay bool
		code                        int
		failed                      []string
	}{
		{"a correct receiver", true, true, 0, nil},
		{"a receiver that skips the signature check", false, true, 1, []string{"old-key"}},
		{"a receiver without replay protection", true, false, 1, []string{"replayed"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			md := filepath.Join(dir, "go-live.md")
			out, errOut, code := sealedRun(t, []string{"CARDTERM_WEBHOOK_KEY=" + probeKey}, "certify", "--receiver", startTestReceiver(t, tc.checkSignature, tc.checkReplay), "--out", md)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s%s", code, tc.code, out, errOut)
			}
			raw, err := os.ReadFile(filepath.Join(dir, "go-live.json"))
			if err != nil {
				t.Fatal(err)
			}
			var report webhookprobe.Certification
			if err := json.Unmarshal(raw, &report); err != nil {
				t.Fatal(err)
			}
			var failed []string
			for _, s := range report.Scenarios {
				if s.Verdict != webhookprobe.Passed {
					failed = append(failed, s.Name)
				}
				if len(s.Deliveries) == 0 {
					t.Errorf("%s has no evidence", s.Name)
				}
			}
			if strings.Join(failed, ",") != strings.Join(tc.failed, ",") || len(report.Scenarios) != 8 || report.Passed != (tc.code == 0) {
				t.Fatalf("failed %v, want %v (%d scenarios)\n%s", failed, tc.failed, len(report.Scenarios), out)
			}
			text, _ := os.ReadFile(md)
			if !webhookprobe.VerifyMarkdown(string(text)) || !strings.Contains(string(text), report.SHA256) || !strings.Contains(out, report.SHA256) {
				t.Fatalf("the hash %s does not match the Markdown report:\n%s", report.SHA256, text)
			}
			edited := strings.Replace(string(text), "| `in-order` |", "| `in-order ` |", 1)
			if webhookprobe.VerifyMarkdown(edited) {
				t.Fatal("an edited report still verifies")
			}
		})
	}
}

func TestCertifyNeedsAReceiverAndAKey(t *testing.T) {
	if _, errOut, code := sealedRun(t, []string{"CARDTERM_WEBHOOK_KEY=" + probeKey}, "certify"); code != exitUsage || !strings.Contains(errOut, "--receiver") {
		t.Fatalf("no receiver: exit %d %s", code, errOut)
	}
	if _, errOut, code := sealedRun(t, []string{"CARDTERM_WEBHOOK_KEY=" + probeKey}, "certify", "--receiver", "http://127.0.0.1:1/", "--out", "x.txt"); code != exitUsage {
		t.Fatalf("--out not .md: exit %d %s", code, errOut)
	}
}
