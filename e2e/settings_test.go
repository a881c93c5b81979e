package e2e

import (
	"os"
	"strings"
	"testing"

	"cardterm/ui/uitest"
)

// The same command line through the binary: a bad value exits 2 before
// anything runs (no sandbox starts, no request is sent), naming the
// values; a good one in another letter case works.
func TestBadEnvironmentExitsTwoBeforeAnythingRuns(t *testing.T) {
	env := profileEnv(t)
	cmd := binaryCommand(t, "get", "user", "--environment", "prod")
	cmd.Env = append(append(os.Environ(), uitest.TestEnv(t)...), env...)
	out, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != exitUsage || !strings.Contains(string(out), "production, staging or sandbox") {
		t.Fatalf("exit %d (%v):\n%s", code, err, out)
	}
	cmd = binaryCommand(t, "get", "user", "--environment", "Sandbox")
	cmd.Env = append(append(os.Environ(), uitest.TestEnv(t)...), env...)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), `"email"`) {
		t.Fatalf("--environment Sandbox: %v\n%s", err, out)
	}
}

// The environment's name in any letter case reaches the status bar:
// Production on the embedded sandbox turns its safeguards on (PRODUCTION),
// Sandbox does not.
func TestEnvironmentOnTheStatusBar(t *testing.T) {
	env := profileEnv(t)
	tm := startTerm(t, env, "--environment", "Production")
	tm.waitFor("Sign in to the Card and Wallet Gateway", "PRODUCTION")
	tm = startTerm(t, env, "--environment", "Sandbox")
	if s := tm.waitFor("Sign in to the Card and Wallet Gateway", "SANDBOX"); strings.Contains(s, "PRODUCTION") {
		t.Fatalf("--environment Sandbox shows PRODUCTION:\n%s", s)
	}
}
