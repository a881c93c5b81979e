package humantime

import (
	"testing"
	"time"
)

func TestDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		0:                              "under 1 s",
		45 * time.Second:               "45 s",
		5 * time.Minute:                "5 min",
		90 * time.Second:               "1 min 30 s",
		12*time.Minute + 5*time.Second: "12 min",
		3*time.Hour + 20*time.Minute:   "3 h 20 min",
		-2 * time.Hour:                 "2 h",
		6471*time.Hour + 41*time.Minute + 8*time.Second: "269 days",
	} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}

func TestRelative(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	for at, want := range map[time.Time]string{
		now:                          "just now",
		now.Add(-4 * 24 * time.Hour): "4 days ago",
		now.Add(3 * time.Hour):       "in 3 h",
		now.Add(-90 * time.Second):   "1 min 30 s ago",
	} {
		if got := Relative(at, now); got != want {
			t.Errorf("Relative(%v) = %q, want %q", at, got, want)
		}
	}
}

func TestTyped(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{0, "0s"},
		{45 * time.Second, "45s"},
		{5 * time.Minute, "5m"},
		{90 * time.Second, "1m30s"},
		{2 * time.Hour, "2h"},
		{time.Hour + 30*time.Minute, "1h30m"},
		{time.Hour + 30*time.Second, "1h0m30s"},
		{1500 * time.Millisecond, "1.5s"},
	} {
		if got := Typed(tc.d); got != tc.want {
			t.Errorf("Typed(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
