package cli

import (
	"strings"
	"testing"
	"time"

	"cardterm/domain/casefile"
)

// The handover lists the cases not solved, the overdue one first, with
// owner, status, due, last note and next step; a solved case and a case
// not worked in the window are left out.
func TestSupportHandoverListsTheOpenCases(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().UTC()
	write := func(ticket string, created time.Time, change func(c *casefile.Case)) {
		c := casefile.New(ticket, "ck", created)
		c.AddLookup(casefile.Lookup{Time: created, Agent: "ana", Kind: "user", ID: "user-" + ticket})
		change(c)
		if _, err := c.Write(casefile.PathFor(dir, ticket), "ana", created); err != nil {
			t.Fatal(err)
		}
	}
	write("TCK-LATE", now.Add(-3*time.Hour), func(c *casefile.Case) {
		_ = c.SetPriority("urgent", "ana", now.Add(-3*time.Hour))
		c.AddNote(casefile.Note{Time: now.Add(-2 * time.Hour), Agent: "ana", Text: "card frozen since Monday\nsecond line"})
	})
	write("TCK-WAIT", now.Add(-time.Hour), func(c *casefile.Case) {
		c.Take("ben", now.Add(-time.Hour))
		_ = c.SetStatus(casefile.StatusWaitingCustomer, "ben", now.Add(-50*time.Minute))
	})
	write("TCK-DONE", now.Add(-time.Hour), func(c *casefile.Case) { _ = c.SetStatus(casefile.StatusSolved, "ana", now) })
	write("TCK-OLD", now.Add(-72*time.Hour), func(c *casefile.Case) {})
	out, errOut, code := runCLI(t, "support", "handover", "--cases-dir", dir, "--since", "8h", "--response-times", "urgent=1h")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"2 not solved", "TCK-LATE · urgent · open · owner unassigned", "due: OVERDUE by 2 h",
		"last note (ana, ", "card frozen since Monday …", "next step: take the case and answer the customer",
		"TCK-WAIT · normal · waiting on the customer · owner ben", "customer: user-TCK-WAIT", "not due: waiting on the customer"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the handover lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "TCK-DONE") || strings.Contains(out, "TCK-OLD") || strings.Index(out, "TCK-LATE") > strings.Index(out, "TCK-WAIT") {
		t.Fatalf("the handover's cases:\n%s", out)
	}
	if _, errOut, code := runCLI(t, "support", "handover", "--cases-dir", dir, "--response-times", "soon=1h"); code == 0 || !strings.Contains(errOut, "PRIORITY=DURATION") {
		t.Fatalf("bad response times: %d %q", code, errOut)
	}
}
