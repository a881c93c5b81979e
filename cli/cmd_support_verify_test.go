package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/domain/actionlog"
)

// verify-log passes a whole log (in the state folder by default) and
// fails on one edited line, naming it.
func TestSupportVerifyLogNamesTheEditedLine(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	path := filepath.Join(state, "cardterm", "support-actions.jsonl")
	log := actionlog.Open(path)
	for _, user := range []string{"u-1", "u-2", "u-3", "u-4"} {
		if err := log.Append(actionlog.Entry{Action: actionlog.ActionLookup, UserID: user, Outcome: "ok"}); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runCLI(t, "support", "verify-log")
	if code != 0 || !strings.Contains(out, "whole: 4 line(s)") || !strings.Contains(out, "last line's hash:") {
		t.Fatalf("a whole log: %d %q %q", code, out, errOut)
	}

	data, _ := os.ReadFile(path)
	edited := strings.Replace(string(data), `"userId":"u-2"`, `"userId":"u-9"`, 1)
	copyPath := filepath.Join(t.TempDir(), "copy.jsonl")
	if err := os.WriteFile(copyPath, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	out, errOut, code = runCLI(t, "support", "verify-log", copyPath)
	if code != exitRefused || !strings.Contains(errOut, "NOT whole") || !strings.Contains(errOut, "line 2: the line was edited") {
		t.Fatalf("an edited log: %d %q %q", code, out, errOut)
	}
}
