package webhookprobe_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"

	"cardterm/sandbox/webhookprobe"
	"cardterm/sandbox/webhookreceiver"
)

// cardterm's own receiver (listen, the Events screen) passes every
// scenario; one that accepts everything fails the refusals by name.
func TestCertifyCardtermsOwnReceiverAndAnAcceptEverythingOne(t *testing.T) {
	rcv, err := webhookreceiver.New(webhookreceiver.Options{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	own := httptest.NewServer(rcv)
	defer own.Close()
	lax := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	defer lax.Close()
	for url, wantFailed := range map[string]map[string]bool{
		own.URL: {},
		lax.URL: {"replayed": true, "unsigned": true, "old-key": true, "expired-midway": true},
	} {
		scenarios, err := webhookprobe.Certify(context.Background(), webhookprobe.CertifyOptions{URL: url, Key: key})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range scenarios {
			if (s.Verdict != webhookprobe.Passed) != wantFailed[s.Name] {
				t.Errorf("%s: %s %s: %s", url, s.Name, s.Verdict, s.Why)
			}
		}
		report := webhookprobe.NewCertification(url, time.Now(), scenarios)
		if report.Passed != (len(wantFailed) == 0) || !webhookprobe.VerifyMarkdown(report.Markdown()) {
			t.Errorf("%s: passed %v", url, report.Passed)
		}
		// The report is read by people: its times are written for them.
		if iso := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d`).FindString(report.Markdown()); iso != "" {
			t.Errorf("%s: the report writes a time as %s", url, iso)
		}
	}
}
