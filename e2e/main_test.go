package e2e

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardterm/ui/uitest"
)

// binary is the cardterm built once for the whole run; sockets is a
// short folder for the tmux servers' sockets (see shortTempDir).
var binary, sockets string

// e2eWait bounds every wait for the screen, a listener or a file. It only
// matters when something is wrong, so it is generous: a loaded 2-core CI
// machine running the other packages' tests at the same time is slow, and
// some journeys wait seconds of gateway time (latency, order polling).
const e2eWait = 30 * time.Second

// The exit codes every command documents (--help, the README): the
// tests read them as a script would, from the outside.
const (
	exitOK          = 0
	exitRefused     = 1
	exitUsage       = 2
	exitAuth        = 3
	exitNetwork     = 4
	exitIncomplete  = 5
	exitInterrupted = 130
)

// TestMain seals the run from this machine's settings (a default profile,
// CARDTERM_*, a proxy, a browser: none reaches the app under test) and
// builds the binary once for every test; run by the app as its browser
// (browser_test.go), it plays the user instead.
func TestMain(m *testing.M) {
	if os.Getenv("CARDTERM_TEST_BROWSER") == "1" { // run by the app as its browser
		os.Exit(playBrowser())
	}
	os.Exit(run(m))
}

// run is TestMain's body, so its deferred clean-ups run before the exit.
func run(m *testing.M) int {
	unseal, err := uitest.Seal()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sealing the tests:", err)
		return 1
	}
	defer unseal()
	dir, err := os.MkdirTemp("", "cardterm-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if sockets, err = shortTempDir(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(sockets)
	binary = filepath.Join(dir, "cardterm")
	build := exec.Command("go", "build", "-o", binary, "cardterm")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building cardterm:", err)
		return 1
	}
	return m.Run()
}

// shortTempDir makes a folder for unix sockets under /tmp when it can: a
// socket's path holds about 100 bytes, and TMPDIR can be longer than that
// alone (macOS gives /var/folders/…/T/, CI runners deeper ones).
func shortTempDir() (string, error) {
	if dir, err := os.MkdirTemp("/tmp", "ct-"); err == nil {
		return dir, nil
	}
	return os.MkdirTemp("", "ct-")
}

// binaryCommand runs the built binary with the test's own HOME and XDG
// folders (uitest.TestEnv); a test that sets cmd.Env keeps them first.
func binaryCommand(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), uitest.TestEnv(t)...)
	return cmd
}

// runPiped runs the built binary with args, sealed (binaryCommand) and
// with env added, stdin as given (nil: none) and its output piped: what
// a script sees. It returns stdout, stderr and the exit code.
func runPiped(t *testing.T, env []string, stdin io.Reader, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := binaryCommand(t, args...)
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = stdin
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

// sealedRun is runPiped with no stdin.
func sealedRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runPiped(t, env, nil, args...)
}
