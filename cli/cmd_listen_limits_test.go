package cli

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// runListenOnce runs `cardterm listen` with args and returns its error;
// for arguments it refuses, it returns at once.
func runListenOnce(t *testing.T, args ...string) error {
	t.Helper()
	cmd := newListenCommand()
	cmd.SetOut(io.Discard)
	cmd.SetErr(io.Discard)
	cmd.SetIn(strings.NewReader(""))
	cmd.SetArgs(args)
	return cmd.Execute()
}

func TestListenRefusesAShortKeyAWideToleranceAndAnExposedAddress(t *testing.T) {
	t.Setenv(webhookKeyEnv, "short")
	err := runListenOnce(t)
	if err == nil || exitCodeFor(err) != exitUsage || !strings.Contains(err.Error(), "the signing key is 5 bytes") ||
		!strings.Contains(err.Error(), "--allow-short-key") {
		t.Fatalf("5-byte key: %v", err)
	}
	t.Setenv(webhookKeyEnv, listenKey)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--tolerance", "876000h"}, "--tolerance 36500 days is over 1 h: a captured delivery could be replayed for that long (--allow-wide-tolerance accepts it)"},
		{[]string{"--tolerance", "-1s"}, "must not be negative"},
		{[]string{"--addr", "0.0.0.0:0"}, "--addr 0.0.0.0:0 is not a loopback address: any host that reaches it could send deliveries (--expose allows it)"},
		{[]string{"--addr", ":0"}, "is not a loopback address"},
		{[]string{"--events", "card.frozen,,x"}, "empty event type"},
	} {
		if err := runListenOnce(t, tc.args...); err == nil || exitCodeFor(err) != exitUsage || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v", tc.args, err)
		}
	}
}

func TestListenAcceptsWhatAFlagAllowsAndWarns(t *testing.T) {
	t.Setenv(webhookKeyEnv, "short-key")
	rl := startListenInProcess(t, "--allow-short-key", "--tolerance", "2h", "--allow-wide-tolerance")
	for _, want := range []string{"Warning: the signing key is only 9 bytes", "Warning: timestamps within 2 h are accepted"} {
		if !strings.Contains(rl.stderr.String(), want) {
			t.Errorf("stderr lacks %q: %s", want, rl.stderr.String())
		}
	}
	if status := deliver(t, rl.url, "short-key", nowTS(-90*time.Minute), frozenBody); status != http.StatusOK {
		t.Fatalf("a delivery within the 2h window answered %d", status)
	}
}

func TestListenExposedSaysWhatItExposes(t *testing.T) {
	var out strings.Builder
	announceListener(&out, "http://0.0.0.0:8080/", listenOptions{addr: "0.0.0.0:8080", expose: true, tolerance: time.Minute})
	if !strings.Contains(out.String(), "Exposed: any host that can reach this machine on that port can send deliveries here") {
		t.Fatalf("announcement %q", out.String())
	}
	out.Reset()
	announceListener(&out, "http://127.0.0.1:8080/", listenOptions{addr: "127.0.0.1:8080", tolerance: time.Minute})
	if strings.Contains(out.String(), "Exposed") {
		t.Fatalf("loopback announced as exposed: %q", out.String())
	}
	for addr, loopback := range map[string]bool{"127.0.0.1:0": true, "localhost:9000": true, "[::1]:0": true, ":0": false, "0.0.0.0:1": false, "192.168.1.5:80": false} {
		if isLoopbackAddr(addr) != loopback {
			t.Errorf("isLoopbackAddr(%q) = %v", addr, !loopback)
		}
	}
}

// `listen --events card.frozen` shows and forwards card.frozen only; other
// verified types are answered 200 and counted; rejected ones still show.
func TestListenEventsFilter(t *testing.T) {
	t.Setenv(webhookKeyEnv, listenKey)
	var forwarded atomic.Int32
	target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { forwarded.Add(1) }))
	defer target.Close()
	rl := startListenInProcess(t, "--events", "card.frozen", "--forward-to", target.URL)
	unfrozen := strings.Replace(frozenBody, "card.frozen", "card.unfrozen", 1)
	if status := deliver(t, rl.url, listenKey, nowTS(0), unfrozen); status != http.StatusOK {
		t.Fatalf("card.unfrozen answered %d", status)
	}
	if status := deliver(t, rl.url, "whsec_not_this_webhooks_key_at_all", nowTS(0), unfrozen); status != http.StatusUnauthorized {
		t.Fatalf("a forged card.unfrozen answered %d", status)
	}
	if status := deliver(t, rl.url, listenKey, nowTS(0), frozenBody); status != http.StatusOK {
		t.Fatalf("card.frozen answered %d", status)
	}
	lines := rl.lines(t, 2)
	if len(lines) != 2 || lines[0].Verified || lines[1].EventType != "card.frozen" || lines[1].Forward == nil {
		t.Fatalf("lines %+v", lines)
	}
	if err := rl.stop(); err != nil {
		t.Fatal(err)
	}
	if n := forwarded.Load(); n != 1 {
		t.Fatalf("%d forwards, want card.frozen's only", n)
	}
	if !strings.Contains(rl.stderr.String(), "Stopped: 1 verified, 1 rejected, 1 of other types.") {
		t.Fatalf("stderr %q", rl.stderr.String())
	}
}

// A rejected delivery's line has its size and the start of its body, not
// the body.
func TestListenPrintsRejectedDeliveriesWithoutTheirBody(t *testing.T) {
	t.Setenv(webhookKeyEnv, listenKey)
	rl := startListenInProcess(t)
	body := `{"event_type":"card.frozen","secret":"` + strings.Repeat("x", 5000) + `"}`
	if status := deliver(t, rl.url, "", nowTS(0), body); status != http.StatusUnauthorized {
		t.Fatalf("unsigned answered %d", status)
	}
	d := rl.lines(t, 1)[0]
	if d.Body != nil || d.BodyText != nil || d.Size != len(body) || !strings.HasPrefix(d.BodyPrefix, `{"event_type":"card.frozen","secret":"xxx`) ||
		len(d.BodyPrefix) > 80 || strings.Count(rl.stdout.String(), "x") > 100 {
		t.Fatalf("rejected line %+v", d)
	}
}

// A slow --forward-to target never holds the sender's answer.
func TestListenForwardRunsBesideTheAnswer(t *testing.T) {
	t.Setenv(webhookKeyEnv, listenKey)
	release := make(chan struct{})
	target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	defer target.Close()
	defer close(release)
	rl := startListenInProcess(t, "--forward-to", target.URL)
	start := time.Now()
	if status := deliver(t, rl.url, listenKey, nowTS(0), frozenBody); status != http.StatusOK {
		t.Fatalf("answered %d", status)
	}
	if took := time.Since(start); took > 5*time.Second { // behind the forward, it would be 10 s
		t.Fatalf("the answer waited %s on the forward", took)
	}
}

// With 64 half-sent connections held open (32 stopped inside their
// headers, 32 inside their bodies), `listen` still answers 10 of 10 valid
// deliveries within 5 s.
func TestListenServesValidDeliveriesBesideHalfSentConnections(t *testing.T) {
	t.Setenv(webhookKeyEnv, listenKey)
	rl := startListenInProcess(t)
	addr := strings.TrimSuffix(strings.TrimPrefix(rl.url, "http://"), "/")
	for i := range 64 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		if i%2 == 0 {
			fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Le")
		} else {
			fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{\"event_type\":")
		}
	}
	start := time.Now()
	answered := 0
	for i := range 10 {
		body := strings.Replace(frozenBody, "evt_1", fmt.Sprintf("evt_slow_%d", i), 1)
		if status := deliver(t, rl.url, listenKey, nowTS(0), body); status == http.StatusOK {
			answered++
		}
	}
	if took := time.Since(start); answered != 10 || took > 5*time.Second {
		t.Fatalf("%d of 10 valid deliveries answered in %s beside 64 half-sent connections", answered, took)
	}
}

// The banner says the window as the app says every span ("5 min"), not
// as Go prints a duration ("5m0s").
func TestListenAnnouncesTheWindowInWords(t *testing.T) {
	var out strings.Builder
	announceListener(&out, "http://127.0.0.1:8080/", listenOptions{addr: "127.0.0.1:8080", tolerance: 5 * time.Minute})
	if !strings.Contains(out.String(), "timestamps within 5 min;") || strings.Contains(out.String(), "5m0s") {
		t.Fatalf("announcement %q", out.String())
	}
}
