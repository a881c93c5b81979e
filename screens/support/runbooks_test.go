package support_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox"
	"cardterm/screens/screentest"
	"cardterm/screens/support"
)

// B on a user's case opens the picker on the built-in runbooks and the
// tenant's own; a tenant runbook that does not parse is reported as a
// danger notice naming its file, and the others still list.
func TestSupportRunbookPickerListsTheTenantsAndReportsABrokenOne(t *testing.T) {
	dir := t.TempDir()
	tenant := "title: Refund asked\nticket: The customer asks for a refund.\nfacts: [card]\nreply: |\n  Hello, your card is {card.status}.\n"
	if err := os.WriteFile(filepath.Join(dir, "refund.yaml"), []byte(tenant), 0o600); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("title: [unclosed\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("frank@demo.test"), CasesDir: t.TempDir(), Agent: "dana", RunbooksDir: dir})
	app.Keys("T")
	app.Type("TCK-R")
	app.Keys("enter")
	app.MustShow(t, "Case TCK-R")
	app.Keys("B")
	app.MustShow(t, "Run a runbook", "Refund asked", "Card not working")
	if got := app.Notice(); !strings.Contains(got, "loading the runbooks") || !strings.Contains(got, "runbook broken") {
		t.Fatalf("notice %q, want the broken runbook reported", got)
	}
}

// At 80 columns a runbook's row too wide for the picker ends in "…",
// never cut short mid-word without a mark.
func TestSupportRunbookRowsTooWideEndMarked(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("frank@demo.test"), CasesDir: t.TempDir(), Agent: "dana"},
		screentest.WithSize(80, 24))
	app.Keys("T")
	app.Type("TCK-W")
	app.Keys("enter")
	app.Keys("B")
	app.MustShow(t, "Run a runbook")
	row := ""
	for _, line := range strings.Split(app.Screen(), "\n") {
		if strings.Contains(line, "Partner missed a webhook event") {
			row = strings.TrimRight(line, " ")
		}
	}
	if !strings.HasSuffix(row, "…") {
		t.Fatalf("the cut row does not end in …: %q", row)
	}
}
