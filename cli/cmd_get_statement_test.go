package cli

import (
	"bytes"
	"strings"
	"testing"

	"cardterm/domain/statement"
)

// On a terminal the progress line rewrites itself in place and is taken
// away at the end.
func TestStatementProgressLine(t *testing.T) {
	var b bytes.Buffer
	p := &progressLine{out: &b, on: true}
	p.show(statement.Progress{Kept: 500, Pages: 10, Reached: "2026-03-01", Fraction: 0.5})
	p.clear()
	if got := b.String(); !strings.Contains(got, "\r\x1b[2K500 transactions, 10 pages, back to 2026-03-01 (50%)") || !strings.HasSuffix(got, "\r\x1b[2K") {
		t.Fatalf("%q", got)
	}
	off := &progressLine{out: &b, on: false}
	b.Reset()
	off.show(statement.Progress{Kept: 1})
	off.clear()
	if b.Len() != 0 {
		t.Fatalf("off the terminal: %q", b.String())
	}
}

// A date refused names the flags the user typed, never the gateway's
// query parameters (dateFrom, dateTo).
func TestStatementDateErrorsNameTheFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--since", "2026-03-01", "--until", "2026-01-01"}, "--until must not be before --since"},
		{[]string{"--since", "2026-3-1"}, "--since must be a date as YYYY-MM-DD"},
		{[]string{"--until", "2026-01-01"}, "--until needs --since"},
	} {
		_, errOut, code := runCLI(t, append([]string{"get", "transactions"}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "date"+"From") {
			t.Errorf("%v: exit %d, %q, want %q", tc.args, code, errOut, tc.want)
		}
	}
}
