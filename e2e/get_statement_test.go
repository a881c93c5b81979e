package e2e

import (
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"cardterm/domain/statement"
)

// `get transactions --all --format csv` writes every transaction of the
// range the gateway answers, page after page, with the documented header;
// stderr stays clean when it is not a terminal.
func TestGetTransactionsStatement(t *testing.T) {
	s := newAPISandbox(t)
	want := 0
	for page := 0; ; page++ {
		var list []json.RawMessage
		_ = json.Unmarshal(s.gateway.do("GET", "/v1/card/transactions?dateFrom=2026-09-01&dateTo=2026-11-20&page="+strconv.Itoa(page), nil), &list)
		if len(list) == 0 {
			break
		}
		want += len(list)
	}
	out, errOut, code := cliRun(t, alice, append([]string{"get", "transactions", "--since", "2026-09-01", "--until", "2026-11-20", "--all", "--format", "csv"}, s.args...)...)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	records, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(records)-1 != want || want <= 50 {
		t.Fatalf("%v: %d rows, the gateway has %d", err, len(records)-1, want)
	}
	if strings.Join(records[0], ",") != strings.Join(statement.Columns, ",") {
		t.Fatalf("header %q", records[0])
	}
	for _, r := range records[1:] {
		if r[1] < "2026-09-01" || r[1] > "2026-11-21" {
			t.Fatalf("a row outside the range: %q", r)
		}
	}
	// One page as JSON lines: 50 rows.
	out, _, code = cliRun(t, alice, append([]string{"get", "transactions", "2", "--format", "jsonl"}, s.args...)...)
	if code != exitOK || strings.Count(out, "\n") != 50 {
		t.Fatalf("page 2 as jsonl: exit %d, %d lines", code, strings.Count(out, "\n"))
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"get", "user", "--all"}, "go with the transactions look-up"},
		{[]string{"get", "transactions", "--until", "2026-01-01"}, "--until needs --since"},
		{[]string{"get", "transactions", "--since", "2026-13-01"}, "--since must be a date"},
		{[]string{"get", "transactions", "--format", "xml"}, "is not csv, json or jsonl"},
		{[]string{"get", "transactions", "3", "--all"}, "give no PAGE"},
	} {
		_, errOut, code := cliRun(t, alice, append(c.args, s.args...)...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
