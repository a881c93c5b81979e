package e2e

import (
	"crypto/hmac"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"cardterm/apiclient"
)

// probeKey signs the test receivers' deliveries.
const probeKey = "whsec_probe_test_key_0123456789abcdef"

// testReceiver is a partner's receiver as partners write them, with the
// checks it makes switchable: the signature, the timestamp window, the
// replay memory, the body limit.
type testReceiver struct {
	checkSignature, checkReplay bool
	mu                          sync.Mutex
	seen                        map[string]bool
}

func (rc *testReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 256<<10))
	if err != nil {
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	}
	ts, signature := r.Header.Get("X-Timestamp"), r.Header.Get("X-Signature")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || signature == "" {
		http.Error(w, "missing or malformed signature headers", http.StatusBadRequest)
		return
	}
	if skew := time.Since(time.Unix(sec, 0)); skew > 5*time.Minute || skew < -5*time.Minute {
		http.Error(w, "timestamp outside the window", http.StatusUnauthorized)
		return
	}
	if rc.checkSignature && !hmac.Equal([]byte(signature), []byte(apiclient.SignWebhook(probeKey, ts, body))) {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	if rc.checkReplay {
		rc.mu.Lock()
		replayed := rc.seen[signature]
		rc.seen[signature] = true
		rc.mu.Unlock()
		if replayed {
			http.Error(w, "replayed", http.StatusConflict)
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

func startTestReceiver(t *testing.T, checkSignature, checkReplay bool) string {
	srv := httptest.NewServer(&testReceiver{checkSignature: checkSignature, checkReplay: checkReplay, seen: map[string]bool{}})
	t.Cleanup(srv.Close)
	return srv.URL + "/webhooks"
}

// probeReport runs `cardterm webhook probe URL --json` (the built binary).
func probeReport(t *testing.T, url string) (report struct {
	Safe   bool
	Checks []struct{ Name, Verdict string }
}, code int) {
	t.Helper()
	out, errOut, code := sealedRun(t, []string{"CARDTERM_WEBHOOK_KEY=" + probeKey}, "webhook", "probe", url, "--json")
	if err := json.Unmarshal([]byte(out), &report); err != nil {
		t.Fatalf("probe --json: %v\n%s\n%s", err, out, errOut)
	}
	return report, code
}

// verdicts lists the checks that did not pass.
func failedChecks(report struct {
	Safe   bool
	Checks []struct{ Name, Verdict string }
}) map[string]string {
	out := map[string]string{}
	for _, c := range report.Checks {
		if c.Verdict != "passed" {
			out[c.Name] = c.Verdict
		}
	}
	return out
}

func TestWebhookProbeFindsEachUnsafeReceiver(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		checkSignature, checkReplay bool
		code                        int
		failed                      map[string]string
	}{
		{"a correct receiver", true, true, 0, map[string]string{}},
		{"a receiver that skips the signature check", false, true, 1,
			map[string]string{"forged-signature": "accepted", "other-body": "accepted"}},
		{"a receiver without replay protection", true, false, 1, map[string]string{"replay": "accepted"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			report, code := probeReport(t, startTestReceiver(t, tc.checkSignature, tc.checkReplay))
			if code != tc.code || report.Safe != (tc.code == 0) || len(report.Checks) != 9 {
				t.Fatalf("exit %d, safe %v, %d checks; want exit %d", code, report.Safe, len(report.Checks), tc.code)
			}
			if got := failedChecks(report); !mapsEqual(got, tc.failed) {
				t.Fatalf("failed checks %v, want %v", got, tc.failed)
			}
		})
	}
}

func TestWebhookProbeTableSaysWhatWasAccepted(t *testing.T) {
	out, _, code := sealedRun(t, []string{"CARDTERM_WEBHOOK_KEY=" + probeKey}, "webhook", "probe", startTestReceiver(t, true, false))
	if code != 1 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	for _, want := range []string{"CHECK", "EXPECTED", "GOT", "RESULT",
		"valid               a signed delivery, timestamp now", "signed 10 min ago (window 5 min)", "204 No Content", "ok",
		"replay              the valid delivery again, byte for byte   refused (4xx)   204 No Content                ACCEPTED  keep the signatures",
		"forged-signature", "401 Unauthorized", "oversized-body", "413 Request Entity Too Large",
		"Not safe to go live: replay (see RESULT)."} {
		if !strings.Contains(out, want) {
			t.Fatalf("the table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "\x1b[") {
		t.Fatalf("colour escapes in piped output:\n%q", out)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
