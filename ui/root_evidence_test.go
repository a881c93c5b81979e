package ui_test

import (
	"strings"
	"testing"

	"cardterm/ui"
	"cardterm/ui/uitest"
)

// ctrl+k in an approved session hands the shown customer screen to the
// console (its id, title and drawn body), not to the screen; outside one
// it is the active screen's key like any other.
func TestKeepHandsTheCustomerScreenToTheConsole(t *testing.T) {
	root, console, _, customerCard := approvedFixture(t)
	uitest.Drive(root, uitest.Key("ctrl+k"))
	var kept *ui.KeepEvidenceMsg
	for _, m := range console.msgs {
		if k, ok := m.(ui.KeepEvidenceMsg); ok {
			kept = &k
		}
	}
	if kept == nil || kept.Screen != cardScreen || kept.Title != "Customer card" || !strings.Contains(kept.View, "Customer card body") || kept.Record != nil {
		t.Fatalf("the console got %+v (all: %v)", kept, console.msgs)
	}
	if len(customerCard.keys) != 0 {
		t.Fatalf("the customer's screen got the keep key: %v", customerCard.keys)
	}
	uitest.Drive(root, uitest.Key("?"))
	if help := uitest.Plain(root.View()); !strings.Contains(help, "ctrl+k") || !strings.Contains(help, "keep in the support case") {
		t.Fatalf("the help of an approved session does not offer keep:\n%s", help)
	}
}
