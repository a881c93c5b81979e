package support_test

import (
	"path/filepath"
	"strings"
	"testing"

	"cardterm/domain/casefile"
	"cardterm/sandbox"
	"cardterm/screens/screentest"
	"cardterm/screens/support"
)

// Two agents share one cases folder: ana opens two cases; ben's console
// opens on the desk's queue with both, owner and status; ben takes one
// and sets it waiting on the customer, which the action log and the case
// hold; both add a note to that case at once and both notes are kept,
// and ana hears that ben changed it.
func TestSupportDeskSharedByTwoAgents(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(t.TempDir(), "state", "support-actions.jsonl")
	alice, frank := sandbox.DemoUserID("alice@demo.test"), sandbox.DemoUserID("frank@demo.test")
	exports := t.TempDir()
	ana := newConsole(t, support.Options{User: alice, CasesDir: dir, Agent: "ana", ExportDir: exports})
	ana.Keys("T")
	ana.Type("TCK-A")
	ana.Keys("enter")
	ana.MustShow(t, "Case TCK-A")
	ana.Keys("T", "ctrl+u", "enter") // an empty ticket closes the case
	ana.Keys("u")
	ana.Type(frank)
	ana.Keys("enter", "T")
	ana.Type("TCK-F")
	ana.Keys("enter")
	ana.MustShow(t, "Case TCK-F · 1 look-up")

	ben := newConsole(t, support.Options{CasesDir: dir, Agent: "ben", ActionLog: logFile})
	s := ben.Screen()
	screentest.MustShow(t, s, "Support desk", "TCK-A", "TCK-F", "unassigned", "open", alice, "2 not solved")
	ben.Keys("t")
	ben.MustShow(t, "taken by ben")
	ben.Keys("s")
	ben.MustShow(t, "now waiting on the customer", "waiting (customer)")
	taken := ""
	for _, e := range logEntries(t, logFile) {
		if e["action"] == "case-taken" || e["action"] == "case-status" {
			taken += e["action"].(string) + " " + e["ticket"].(string) + " " + e["agent"].(string) + ";"
		}
	}
	first := strings.Fields(taken)[1]
	if !strings.Contains(taken, "case-taken "+first+" ben") || !strings.Contains(taken, "case-status "+first+" ben") {
		t.Fatalf("the action log's queue lines: %s", taken)
	}

	// Both open that case and add a note; ben writes first, ana's write
	// merges.
	ben.Keys("enter")
	ben.MustShow(t, "Case "+first)
	ana.Keys("esc", "D")
	ana.MustShow(t, "Support desk", "waiting (customer)", "ben")
	ana.Keys("j", "enter") // the waiting case comes after the one due
	ana.MustShow(t, "Case "+first)
	ben.Keys("n")
	ben.Type("ben: asked the customer for a screenshot")
	ana.Keys("n")
	ana.Type("ana: the card was frozen by the app")
	ben.Keys("ctrl+s")
	ana.Keys("ctrl+s")
	c, err := casefile.Load(casefile.PathFor(dir, first))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Notes) != 2 || c.State.Owner.Value != "ben" || c.Status() != casefile.StatusWaitingCustomer {
		t.Fatalf("the shared case: notes %+v, owner %q, status %q", c.Notes, c.State.Owner.Value, c.Status())
	}
	ana.Keys("m")
	ana.MustShow(t, "changed by another agent", "ben: 1 note")

	// ben writes a second note after ana's last write: ana's export
	// still holds every note (the export merges the file first).
	ben.Keys("n")
	ben.Type("ben: the screenshot came")
	ben.Keys("ctrl+s")
	ana.Keys("esc", "e")
	md, _ := filepath.Glob(filepath.Join(exports, "case-"+first+"-*.md"))
	if len(md) != 1 {
		t.Fatalf("exports: %v", md)
	}
	screentest.MustShow(t, readFile(t, md[0]), "ben: asked the customer for a screenshot", "ana: the card was frozen by the app", "ben: the screenshot came")
}
