package cli

import (
	"path/filepath"
	"strings"
	"testing"

	"cardterm/domain/savedview"
)

// get transactions --view NAME reads the page with the filters of the view
// saved in the app; an unknown view names those there are; --view is for
// transactions only.
func TestGetTransactionsInASavedView(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	useConfigDir(t)
	store := savedview.Store{Path: filepath.Join(state, "cardterm", "views.json")}
	view := savedview.View{Screen: "transactions", Name: "amazon", Filter: map[string]string{"searchKey": "Amazon"}}
	if err := store.Save(view); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "get", "transactions", "--view", "amazon", "--jq", ".[].merchantNameLocation")
	if code != exitOK || !strings.Contains(out, "Amazon EU") {
		t.Fatalf("get --view: %d %q %q", code, out, errOut)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.Contains(line, "Amazon") {
			t.Fatalf("a transaction outside the view's filter: %q", line)
		}
	}
	_, errOut, code = runCLI(t, "get", "transactions", "--view", "travel")
	if code != exitUsage || !strings.Contains(errOut, `no transactions view is called "travel" (saved: amazon)`) {
		t.Fatalf("unknown view: %d %q", code, errOut)
	}
	_, errOut, code = runCLI(t, "get", "card", "--view", "amazon")
	if code != exitUsage || !strings.Contains(errOut, "--view is for transactions, not card") {
		t.Fatalf("--view on card: %d %q", code, errOut)
	}
}

// --theme completes the built-in themes (and files); get's --view the
// saved transactions views of the profile.
func TestThemeAndViewCompletion(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	useConfigDir(t)
	if err := (savedview.Store{Path: filepath.Join(state, "cardterm", "views.json")}).Save(savedview.View{Screen: "transactions", Name: "big"}); err != nil {
		t.Fatal(err)
	}
	if out, _, _ := runCLI(t, "__complete", "--theme", ""); !strings.Contains(out, "high-contrast\ncolour-blind\n:0") {
		t.Errorf("--theme completion:\n%s", out)
	}
	if out, _, _ := runCLI(t, "__complete", "get", "transactions", "--view", ""); !strings.HasPrefix(out, "big\n:4") {
		t.Errorf("--view completion:\n%s", out)
	}
}
