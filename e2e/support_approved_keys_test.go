package e2e

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cardterm/sandbox"
)

// In an approved session the Transactions footer and help name exactly
// the keys that work there: x exports (as the header says), S ends the
// session rather than signing the agent out, and the holder's notes (t,
// #), which the session keeps nowhere, are not offered.
func TestSupportApprovedSessionTransactionsKeys(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	tm := approve(t, sb, t.TempDir(), "alice@demo.test")
	tm.waitFor("READ-ONLY · CUSTOMER-APPROVED SESSION: Alice Martin (alice@demo.test)", "Account", "VERIFIED")
	tm.open("Transactions")
	tm.waitFor("x export", "row 1 of")
	footer := strings.Split(strings.TrimRight(tm.screen(), "\n"), "\n")
	if last := footer[len(footer)-1]; !strings.Contains(last, "x export") {
		t.Fatalf("the footer does not offer x export: %q", last)
	}
	tm.send("?")
	tm.waitFor("end the session")
	help := tm.screen()
	for _, absent := range []string{"sign out", "note and tags"} {
		if strings.Contains(help, absent) {
			t.Fatalf("the help offers %q in an approved session:\n%s", absent, help)
		}
	}
	if !regexp.MustCompile(`S +end the session`).MatchString(help) || !regexp.MustCompile(`x +export`).MatchString(help) {
		t.Fatalf("the help does not say S ends the session and x exports:\n%s", help)
	}
	tm.send("Escape")
	tm.waitFor("row 1 of")
	tm.send("t")
	tm.waitFor("note and tags")
}

// On the embedded sandbox the app knows the tenant's secret key: ctrl+o
// goes straight to the customer's sign-in, never asking for it (a
// --base-url gateway still asks: approveWithKey).
func TestSupportApprovedSessionOnTheEmbeddedSandboxNeedsNoKey(t *testing.T) {
	dir := t.TempDir()
	alice := sandbox.DemoUserID("alice@demo.test")
	env := append([]string{"CARDTERM_SECRET_KEY=", "XDG_STATE_HOME=" + filepath.Join(dir, "state"), "XDG_DATA_HOME=" + filepath.Join(dir, "data")},
		customerBrowserEnv(t, "alice@demo.test")...)
	tm := startTerm(t, env, "support", alice)
	tm.waitFor("User "+alice, "COMPLETE")
	tm.send("C-o")
	tm.waitFor("READ-ONLY · CUSTOMER-APPROVED SESSION: Alice Martin (alice@demo.test)")
	tm.confirm("q", "End the customer-approved session?", "DELETE /v1/auth/oauth/revoke")
	tm.waitFor("customer-approved session ended")
}
