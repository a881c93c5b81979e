package ledger

import (
	"strings"
	"testing"
)

// A currency from the gateway is shown sanitized and bounded in totals.
func TestTotalsStringSanitizesCurrency(t *testing.T) {
	ts := Totals{}
	ts.Add("EUR\x1b]0;title\x07\x1b[31m", "1.50", true)
	ts.Add(strings.Repeat("X", 5000), "2", false)
	got := ts.String()
	if strings.ContainsAny(got, "\x1b\x07") || len(got) > 60 {
		t.Errorf("Totals.String() = %q; want no escape and bounded codes", got)
	}
}
