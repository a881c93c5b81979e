package webhookreceiver

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
)

func TestVerifyReasons(t *testing.T) {
	ts := strconv.FormatInt(t0.Unix(), 10)
	sig := apiclient.SignWebhook(testKey, ts, []byte(testBody))
	for _, tc := range []struct {
		name               string
		key, ts, sig, body string
		now                time.Time
		tolerance          time.Duration
		want               Reason
	}{
		{"valid", testKey, ts, sig, testBody, t0, 0, ""},
		{"valid at the edge", testKey, ts, sig, testBody, t0.Add(5 * time.Minute), 0, ""},
		{"upper-case hex", testKey, ts, strings.ToUpper(sig), testBody, t0, 0, ""},
		{"wrong key", "whsec_other", ts, sig, testBody, t0, 0, ReasonSignature},
		{"masked key", "whsec_********cdef", ts, sig, testBody, t0, 0, ReasonSignature},
		{"body changed", testKey, ts, sig, testBody + "\n", t0, 0, ReasonSignature},
		{"timestamp changed", testKey, strconv.FormatInt(t0.Unix()+1, 10), sig, testBody, t0, 0, ReasonSignature},
		{"too old", testKey, ts, sig, testBody, t0.Add(5*time.Minute + time.Second), 0, ReasonTimestamp},
		{"within a wider tolerance", testKey, ts, sig, testBody, t0.Add(time.Hour), 2 * time.Hour, ""},
		{"missing timestamp", testKey, "", sig, testBody, t0, 0, ReasonMalformed},
		{"timestamp in milliseconds is still a number", testKey, ts + "000", sig, testBody, t0, 0, ReasonSignature},
		{"timestamp not a number", testKey, "yesterday", sig, testBody, t0, 0, ReasonMalformed},
		{"missing signature", testKey, ts, "", testBody, t0, 0, ReasonMalformed},
		{"signature with a scheme prefix", testKey, ts, "sha256=" + sig, testBody, t0, 0, ReasonMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Verify(tc.key, tc.ts, tc.sig, []byte(tc.body), tc.now, tc.tolerance)
			if got := ReasonOf(err); got != tc.want {
				t.Fatalf("reason %q (%v), want %q", got, err, tc.want)
			}
			var ve *VerifyError
			if tc.want != "" && (!errors.As(err, &ve) || ve.Detail == "" || !strings.Contains(err.Error(), tc.want.Summary())) {
				t.Fatalf("error %v says too little", err)
			}
		})
	}
}

func TestForgedOldDeliveryIsASignatureFailure(t *testing.T) {
	// A delivery both forged and old is reported as forged: the time of a
	// delivery whose signature is wrong says nothing.
	ts := strconv.FormatInt(t0.Add(-time.Hour).Unix(), 10)
	err := Verify(testKey, ts, apiclient.SignWebhook("whsec_other", ts, []byte(testBody)), []byte(testBody), t0, 0)
	if ReasonOf(err) != ReasonSignature {
		t.Fatalf("%v", err)
	}
}
