package webhookprobe_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"cardterm/sandbox/webhookprobe"
	"cardterm/sandbox/webhookreceiver"
)

const key = "whsec_probe_package_test_0123456789"

// TestCardtermsOwnReceiverPassesTheProbe: the receiver behind listen and
// the Events screen refuses every attack.
func TestCardtermsOwnReceiverPassesTheProbe(t *testing.T) {
	rcv, err := webhookreceiver.New(webhookreceiver.Options{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	srv := httptest.NewServer(rcv)
	defer srv.Close()
	report, err := webhookprobe.Run(context.Background(), webhookprobe.Options{URL: srv.URL, Key: key})
	if err != nil {
		t.Fatal(err)
	}
	if !report.Safe || len(report.Checks) != 9 {
		t.Fatalf("%+v", report)
	}
}

// TestAnAcceptEverythingReceiverFailsEveryAttack.
func TestAnAcceptEverythingReceiverFailsEveryAttack(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	defer srv.Close()
	report, err := webhookprobe.Run(context.Background(), webhookprobe.Options{URL: srv.URL, Key: key, OversizedBytes: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	if report.Safe {
		t.Fatal("an accept-everything receiver was found safe")
	}
	for _, c := range report.Checks {
		want := webhookprobe.Accepted
		if c.Name == "valid" {
			want = webhookprobe.Passed
		}
		if c.Verdict != want || c.Status != 200 {
			t.Errorf("%s: %s %d, want %s", c.Name, c.Verdict, c.Status, want)
		}
	}
}

func TestProbeRefusesABadURLOrKey(t *testing.T) {
	for _, o := range []webhookprobe.Options{{URL: "ftp://x", Key: key}, {URL: "http://127.0.0.1:1", Key: ""}, {URL: "http://127.0.0.1:1", Key: "whsec_****abcd"}} {
		if _, err := webhookprobe.Run(context.Background(), o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
