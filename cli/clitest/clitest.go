// Package clitest holds what the tests that run cardterm's commands share,
// whether they run a command in process (cli's tests) or the built binary
// (e2e): a buffer the command writes while the test reads it, waiting for
// its output, and reading `cardterm listen`'s.
package clitest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Buffer is a bytes.Buffer a command or process writes while the test
// reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// WaitFor polls s until re matches, within the given time, and returns
// the first non-empty group (or the whole match); what names s in the
// failure.
func WaitFor(t testing.TB, what string, s func() string, re *regexp.Regexp, within time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(within)
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
		time.Sleep(10 * time.Millisecond)
	}
}

// listening is listen's first line on stderr, or the error it stopped on.
var listening = regexp.MustCompile(`Listening for webhook deliveries on (http://127\.0\.0\.1:\d+/)|(?s)^(Error: .*)`)

// ListenURL waits until `cardterm listen` says on stderr where it listens
// and returns that URL; listen stopping on an error fails the test.
func ListenURL(t testing.TB, stderr *Buffer, within time.Duration) string {
	t.Helper()
	url := WaitFor(t, "stderr", stderr.String, listening, within)
	if !strings.HasPrefix(url, "http://") {
		t.Fatalf("listen failed: %s", url)
	}
	return url
}

// ListenLines waits until listen printed n JSON lines on stdout and
// decodes every line printed so far into a T (the fields a test reads).
func ListenLines[T any](t testing.TB, stdout *Buffer, n int, within time.Duration) []T {
	t.Helper()
	WaitFor(t, "stdout", stdout.String, regexp.MustCompile(`(?s)^(([^\n]*\n){`+strconv.Itoa(n)+`})`), within)
	var out []T
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var d T
		if err := json.Unmarshal([]byte(line), &d); err != nil {
			t.Fatalf("line %q is not JSON: %v", line, err)
		}
		out = append(out, d)
	}
	return out
}
