package apiclient_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// lockedLog is a log destination shared with the client's goroutines.
type lockedLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedLog) lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Split(strings.TrimSpace(l.buf.String()), "\n")
}

func TestDebugLogOneLinePerExchangeWithRetriesAndNoQueryValues(t *testing.T) {
	var log lockedLog
	g := newGateway(t, sandbox.Options{})
	c := g.client(func(cfg *apiclient.Config) {
		cfg.Logger = slog.New(slog.NewTextHandler(&log, nil))
		cfg.MaxRetryWait = 2 * time.Second
	})
	login(t, c, "alice@demo.test")
	if _, err := c.Transactions(context.Background(), apiclient.TransactionFilter{SearchKey: "coffee-at-the-secret-place"}); err != nil {
		t.Fatal(err)
	}
	g.srv.SetFaults(sandbox.Faults{Burst429: 1})
	if _, err := c.CardStatus(context.Background()); err != nil {
		t.Fatal(err)
	}
	lines := log.lines()
	if len(lines) != 4 {
		t.Fatalf("want 4 lines (login, transactions, 429, retry), got %d:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	for i, want := range [][]string{
		{"method=POST", "path=/v1/auth/login", "status=200", "retry=0"},
		{"method=GET", "path=/v1/card/transactions", "query=page,searchKey", "status=200"},
		{"method=GET", "path=/v1/card", "status=429", "retry=0"},
		{"method=GET", "path=/v1/card", "status=200", "retry=1"},
	} {
		for _, w := range want {
			if !strings.Contains(lines[i], w) {
				t.Errorf("line %d lacks %q: %s", i+1, w, lines[i])
			}
		}
	}
	if strings.Contains(strings.Join(lines, "\n"), "secret-place") {
		t.Error("a query value reached the log")
	}
}

func TestDebugLogOfAFailedExchangeLeavesTheURLOut(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	var log lockedLog
	c := apiclient.New(apiclient.Config{BaseURL: "http://" + addr, ClientKey: "ck", Logger: slog.New(slog.NewTextHandler(&log, nil))})
	_, _ = c.UserConsent(context.Background(), "u1", true)
	lines := log.lines()
	if len(lines) != 1 || !strings.Contains(lines[0], "error=") || strings.Contains(lines[0], "full=true") || strings.Contains(lines[0], "http://") {
		t.Fatalf("%q", lines)
	}
}

// What the gateway sends that reaches the log (a request id) is
// neutralised as on screen: no C1 control, bidi or zero-width character
// reaches the file raw (Go's HTTP client already refuses C0 controls in a
// header, and says so in an error that is logged escaped).
func TestDebugLogNeutralisesTheGatewaysText(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 4096)
			_, _ = conn.Read(buf)
			_, _ = conn.Write([]byte("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" +
				"X-Request-Id: req\u202eevil\u200b\u009b2J\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}"))
			conn.Close()
		}
	}()
	var log lockedLog
	c := apiclient.New(apiclient.Config{BaseURL: "http://" + ln.Addr().String(), ClientKey: "ck_x",
		Logger: slog.New(slog.NewTextHandler(&log, nil))})
	c.SetSession(apiclient.Session{AccessToken: "at"})
	_, _ = c.User(context.Background())
	out := strings.Join(log.lines(), "\n")
	if !strings.Contains(out, "request_id=") {
		t.Fatalf("the request id is not logged: %s", out)
	}
	if strings.ContainsAny(out, "\x1b\x07\u202e\u200b\u009b") {
		t.Fatalf("the gateway's text reached the log raw: %q", out)
	}
}
