package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// On a terminal with stdout sent to a file (cardterm > out.txt), the app
// does not start: the file stays empty (no escape sequences), the reason
// shows on the terminal, and the exit status is 2.
func TestAppWithStdoutInAFile(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.txt")
	tm := startShell(t, nil, binary+" > "+out+"; echo EXIT=$?; sleep 60")
	screen := tm.waitFor("EXIT=")
	if !strings.Contains(screen, "EXIT=2") || !strings.Contains(screen, "needs a terminal") {
		t.Errorf("the terminal shows:\n%s", screen)
	}
	if data, err := os.ReadFile(out); err != nil || len(data) != 0 {
		t.Errorf("out.txt holds %q (%v); want nothing", data, err)
	}
}
