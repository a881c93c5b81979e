package cli

import (
	"strings"
	"testing"
	"time"
)

func TestSandboxPublicURLMustBeAnHTTPURL(t *testing.T) {
	var out, errOut strings.Builder
	if code := Run([]string{"sandbox", "--public-url", "ftp://demo.example"}, nil, &out, &errOut); code != exitUsage || !strings.Contains(errOut.String(), "--public-url") {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}

// A clock shift reads as the app writes spans of time, never Go's
// "7h0m0s", and keeps the hours of a shift of days.
func TestDescribeShiftReadsAsTheAppWritesTime(t *testing.T) {
	for _, c := range []struct {
		shift time.Duration
		want  string
	}{
		{0, "under 1 s ahead of the wall clock"},
		{7 * time.Hour, "7 h ahead of the wall clock"},
		{90 * time.Minute, "1 h 30 min ahead of the wall clock"},
		{24 * time.Hour, "1 day ahead of the wall clock"},
		{8 * 24 * time.Hour, "8 days ahead of the wall clock"},
		{185*24*time.Hour + 7*time.Hour, "185 days 7 h ahead of the wall clock"},
		{-3 * time.Hour, "3 h behind the wall clock"},
	} {
		if got := describeShift(c.shift); got != c.want {
			t.Errorf("describeShift(%v) = %q, want %q", c.shift, got, c.want)
		}
	}
}
