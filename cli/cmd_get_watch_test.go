package cli

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/sandbox/gatewaytest"
)

// lockedBuffer is a buffer the watch writes while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Piped, a watch prints the card as one JSON line, then one more line when
// another client freezes it over HTTP, and nothing while it stays the same.
func TestWatchPrintsEachChangeAsAJSONLine(t *testing.T) {
	hs := httptest.NewServer(sandbox.New(sandbox.Options{}))
	t.Cleanup(hs.Close)
	config := apiclient.Config{BaseURL: hs.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey}
	watcher, other := apiclient.New(config), apiclient.New(config)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, c := range []*apiclient.Client{watcher, other} {
		if _, err := c.Login(ctx, "alice@demo.test", "demo-pass"); err != nil {
			t.Fatal(err)
		}
	}
	out := &lockedBuffer{}
	screen := &watchScreen{w: out, what: "card", interval: minWatchInterval}
	done := make(chan int)
	go func() {
		done <- watchLoop(ctx, func(ctx context.Context) ([]byte, error) { return lookupCall(ctx, watcher, "card", nil, nil) }, screen, &lockedBuffer{})
	}()
	waitForLines(t, out, 1)
	time.Sleep(2 * minWatchInterval) // two reads of the same card print nothing
	if lines := strings.Count(out.String(), "\n"); lines != 1 {
		t.Fatalf("an unchanged card was printed again:\n%s", out)
	}
	if err := other.FreezeCard(ctx); err != nil {
		t.Fatal(err)
	}
	waitForLines(t, out, 2)
	cancel()
	if code := <-done; code != exitInterrupted {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if !strings.Contains(lines[0], `"status":"ACTIVE"`) || !strings.Contains(lines[1], `"status":"FROZEN"`) {
		t.Fatalf("lines:\n%s", out)
	}
}

func waitForLines(t *testing.T, out *lockedBuffer, lines int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(out.String(), "\n") < lines {
		if time.Now().After(deadline) {
			t.Fatalf("waited for %d lines:\n%s", lines, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// On a terminal a change is named (field: before → after) and its line
// marked; a failure that asks to wait (Retry-After) delays the next read
// that long and says so.
func TestWatchMarksWhatChangedAndWaitsRetryAfter(t *testing.T) {
	out := &lockedBuffer{}
	screen := &watchScreen{w: out, control: out, terminal: true, what: "card", interval: time.Second}
	if err := screen.read([]byte(`{"id":"c1","status":"ACTIVE"}`)); err != nil {
		t.Fatal(err)
	}
	if err := screen.read([]byte(`{"id":"c1","status":"FROZEN"}`)); err != nil {
		t.Fatal(err)
	}
	drawn := out.String()[strings.LastIndex(out.String(), "\x1b[2J"):]
	if !strings.Contains(drawn, "changed: status: ACTIVE → FROZEN") || !strings.Contains(drawn, "▶ \x1b[7m  \"status\": \"FROZEN\"") ||
		!strings.Contains(drawn, "\n    \"id\": \"c1\",") {
		t.Fatalf("drawn:\n%q", drawn)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(1500*time.Millisecond, cancel) // past the 1s interval, within the 7s asked
	reads := 0
	code := watchLoop(ctx, func(context.Context) ([]byte, error) {
		reads++
		return nil, &apiclient.Error{Status: 503, Message: "busy", RetryAfter: 7 * time.Second}
	}, screen, &lockedBuffer{})
	if code != exitInterrupted || reads != 1 || !strings.Contains(out.String(), "(next read in 7s)") {
		t.Fatalf("exit %d after %d reads:\n%q", code, reads, out.String())
	}
}

func TestWatchInterval(t *testing.T) {
	cases := []struct {
		flag     string
		args     []string
		interval time.Duration
		rest     int
		refused  bool
	}{
		{"2s", []string{"card", "1"}, time.Second, 1, false},
		{"2s", []string{"card"}, 2 * time.Second, 1, false},
		{"500ms", []string{"card"}, 500 * time.Millisecond, 1, false},
		{"2s", []string{"transactions", "3"}, 2 * time.Second, 2, false}, // PAGE, not an interval
		{"2s", []string{"transactions", "3", "5"}, 5 * time.Second, 2, false},
		{"2s", []string{"card", "0.1"}, 0, 0, true},
		{"soon", []string{"card"}, 0, 0, true},
	}
	for _, tc := range cases {
		interval, rest, err := watchArgs(tc.flag, tc.args)
		if (err != nil) != tc.refused || (!tc.refused && (interval != tc.interval || len(rest) != tc.rest)) {
			t.Errorf("watchArgs(%q, %q) = %s %q %v", tc.flag, tc.args, interval, rest, err)
		}
	}
}

// A gateway that answers the card 429 with Retry-After: 2 gets no request
// to that endpoint from a watch reading every second until the 2 s have
// passed; then the watch reads it again and prints it.
func TestWatchSendsNothingToAnEndpointBeforeItsRetryAfter(t *testing.T) {
	limited := &gatewaytest.RetryAfter{Next: sandbox.New(sandbox.Options{}), Method: http.MethodGet,
		Path: "/v1/card/status", Seconds: 2, Now: time.Now}
	hs := httptest.NewServer(limited)
	t.Cleanup(hs.Close)
	watcher := apiclient.New(apiclient.Config{BaseURL: hs.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if _, err := watcher.Login(ctx, "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	out := &lockedBuffer{}
	screen := &watchScreen{w: out, what: "card", interval: minWatchInterval}
	done := make(chan int)
	go func() {
		done <- watchLoop(ctx, func(ctx context.Context) ([]byte, error) { return lookupCall(ctx, watcher, "card", nil, nil) }, screen, &lockedBuffer{})
	}()
	waitForLines(t, out, 1)
	cancel()
	<-done
	if early := limited.Early(); early != 0 {
		t.Fatalf("%d reads reached the card within its Retry-After (hits %v)", early, limited.Hits())
	}
	if !strings.Contains(out.String(), `"status":"ACTIVE"`) {
		t.Fatalf("after the wait the card was not printed:\n%s", out)
	}
}
