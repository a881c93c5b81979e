package cli

import (
	"fmt"
	"time"

	"cardterm/domain/humantime"
)

// describeShift says how far ahead or behind the sandbox's clock is, the
// way the app writes spans ("7 h", "8 days", "185 days 7 h"), never Go's
// "7h0m0s" (sandbox clock, listen). Days are kept whole with what is left
// of the last one, so a shift of 185 days and 7 hours reads exactly.
func describeShift(d time.Duration) string {
	dir := "ahead of"
	if d < 0 {
		dir, d = "behind", -d
	}
	days := d / (24 * time.Hour)
	rest := d - days*24*time.Hour
	unit := "days"
	if days == 1 {
		unit = "day"
	}
	var text string
	switch {
	case days == 0:
		text = humantime.Duration(rest)
	case rest < time.Minute:
		text = fmt.Sprintf("%d %s", days, unit)
	default:
		text = fmt.Sprintf("%d %s %s", days, unit, humantime.Duration(rest))
	}
	return text + " " + dir + " the wall clock"
}
