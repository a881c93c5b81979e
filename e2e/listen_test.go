package e2e

import (
	"encoding/json"
	"errors"
	"os/exec"
	"regexp"
	"syscall"
	"testing"
	"time"

	"cardterm/cli/clitest"
)

// listenBinary is `cardterm listen` (the built binary) running in the
// background, its output piped; cli's listenInProcess runs the command in
// process.
type listenBinary struct {
	url            string
	stdout, stderr *clitest.Buffer
	stop           func() error // SIGTERM, then its exit: nil for 0 or 130
}

// deliveryLine is the part of one of listen's JSON lines the tests read.
type deliveryLine struct {
	Verified  bool                `json:"verified"`
	EventType string              `json:"eventType"`
	Headers   map[string][]string `json:"headers"`
	Body      json.RawMessage     `json:"body"`
}

// startListenBinary runs `cardterm listen args...` with no stdin and
// waits until it says where it listens; it is stopped when the test ends.
func startListenBinary(t *testing.T, args ...string) *listenBinary {
	t.Helper()
	cmd := binaryCommand(t, append([]string{"listen"}, args...)...)
	rl := &listenBinary{stdout: &clitest.Buffer{}, stderr: &clitest.Buffer{}}
	cmd.Stdout, cmd.Stderr = rl.stdout, rl.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var stopped bool
	var stopErr error
	rl.stop = func() error {
		if stopped {
			return stopErr
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case stopErr = <-done:
		case <-time.After(e2eWait):
			_ = cmd.Process.Kill()
			return errors.New("listen did not stop on SIGTERM")
		}
		var exit *exec.ExitError
		if errors.As(stopErr, &exit) && exit.ExitCode() == exitInterrupted {
			stopErr = nil
		}
		return stopErr
	}
	t.Cleanup(func() { _ = rl.stop() })
	rl.url = clitest.ListenURL(t, rl.stderr, e2eWait)
	return rl
}

// lines decodes the JSON lines printed so far, waiting until there are n.
func (rl *listenBinary) lines(t *testing.T, n int) []deliveryLine {
	t.Helper()
	return clitest.ListenLines[deliveryLine](t, rl.stdout, n, e2eWait)
}

// waitFor waits until s() matches re and returns the first non-empty
// group (or the whole match); what names s in the failure.
func waitFor(t *testing.T, what string, s func() string, re *regexp.Regexp) string {
	t.Helper()
	return clitest.WaitFor(t, what, s, re, e2eWait)
}
