package cli

import (
	"fmt"
	"time"
)

// describeShift says how far ahead or behind the sandbox's clock is, in
// days when it is a day or more (sandbox clock, listen).
func describeShift(d time.Duration) string {
	dir := "ahead of"
	if d < 0 {
		dir, d = "behind", -d
	}
	days := d / (24 * time.Hour)
	rest := d - days*24*time.Hour
	text := rest.String()
	switch {
	case days > 0 && rest == 0:
		text = fmt.Sprintf("%dd", days)
	case days > 0:
		text = fmt.Sprintf("%dd%s", days, rest)
	}
	return text + " " + dir + " the wall clock"
}
