package cli

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"cardterm/ui/uitest"
)

// sealedEnvironment is the test process's environment, already sealed
// from the caller's settings (uitest.Seal), with the test's own HOME and
// XDG folders and no keyring (uitest.TestEnv), then env.
func sealedEnvironment(t *testing.T, env ...string) []string {
	t.Helper()
	return append(append(os.Environ(), uitest.TestEnv(t)...), env...)
}

// sealedRun runs the built binary with args in a sealed environment plus
// env, its output piped: what a script sees.
func sealedRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = sealedEnvironment(t, env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		code = exit.ExitCode()
	default:
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}
