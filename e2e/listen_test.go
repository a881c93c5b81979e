package e2e

import (
	"encoding/json"
	"errors"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runningListen is `cardterm listen` (the built binary) running in the
// background, its output piped.
type runningListen struct {
	url            string
	stdout, stderr *syncBuffer
	stop           func() error // SIGTERM, then its exit: nil for 0 or 130
}

// deliveryLine is the part of one of listen's JSON lines the tests read.
type deliveryLine struct {
	Verified  bool                `json:"verified"`
	EventType string              `json:"eventType"`
	Headers   map[string][]string `json:"headers"`
	Body      json.RawMessage     `json:"body"`
}

// startListen runs `cardterm listen args...` with no stdin and waits until
// it says where it listens; it is stopped when the test ends.
func startListen(t *testing.T, args ...string) *runningListen {
	t.Helper()
	cmd := binaryCommand(t, append([]string{"listen"}, args...)...)
	rl := &runningListen{stdout: &syncBuffer{}, stderr: &syncBuffer{}}
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
	re := regexp.MustCompile(`Listening for webhook deliveries on (http://127\.0\.0\.1:\d+/)|(?s)^(Error: .*)`)
	rl.url = waitFor(t, "stderr", rl.stderr.String, re)
	if !strings.HasPrefix(rl.url, "http://") {
		t.Fatalf("listen failed: %s", rl.url)
	}
	return rl
}

// lines decodes the JSON lines printed so far, waiting until there are n.
func (rl *runningListen) lines(t *testing.T, n int) []deliveryLine {
	t.Helper()
	waitFor(t, "stdout", rl.stdout.String, regexp.MustCompile(`(?s)^(([^\n]*\n){`+strconv.Itoa(n)+`})`))
	var out []deliveryLine
	for _, l := range strings.Split(strings.TrimSpace(rl.stdout.String()), "\n") {
		var d deliveryLine
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("line %q is not JSON: %v", l, err)
		}
		out = append(out, d)
	}
	return out
}

// waitFor waits until s() matches re and returns the first non-empty
// group (or the whole match); what names s in the failure.
func waitFor(t *testing.T, what string, s func() string, re *regexp.Regexp) string {
	t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		if m := re.FindStringSubmatch(s()); m != nil {
			for _, g := range m[1:] {
				if g != "" {
					return g
				}
			}
			return m[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never showed %s; it holds:\n%s", what, re, s())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
