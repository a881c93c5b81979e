// Package humantime writes spans of time the way the app shows them to
// people: "45 s", "5 min", "3 h 20 min", "269 days", never Go's "5m0s" or
// "6471h41m8s". It imports nothing of the app, so the sandbox (the webhook
// receiver's refusals), the command line and the screens share it.
package humantime

import (
	"fmt"
	"strings"
	"time"
)

// Duration writes d (its magnitude) to the precision a reader needs: the
// two largest units, seconds only under a minute.
func Duration(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	switch {
	case d < time.Second:
		return "under 1 s"
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d/time.Second))
	case d < time.Hour:
		m, s := int(d/time.Minute), int(d%time.Minute/time.Second)
		if s == 0 || m >= 10 {
			return fmt.Sprintf("%d min", m)
		}
		return fmt.Sprintf("%d min %d s", m, s)
	case d < 48*time.Hour:
		h, m := int(d/time.Hour), int(d%time.Hour/time.Minute)
		if m == 0 {
			return fmt.Sprintf("%d h", h)
		}
		return fmt.Sprintf("%d h %d min", h, m)
	}
	days := int(d / (24 * time.Hour))
	return fmt.Sprintf("%d days", days)
}

// Relative writes when t is seen from now: "5 min ago", "in 3 h", "just
// now" within a second.
func Relative(t, now time.Time) string {
	d := now.Sub(t)
	switch {
	case d > -time.Second && d < time.Second:
		return "just now"
	case d > 0:
		return Duration(d) + " ago"
	}
	return "in " + Duration(d)
}

// Typed writes d as a user types it on a command line or in a rule
// ("10m", "2h", "1h30m"), without the zero units Go prints ("10m0s").
func Typed(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
