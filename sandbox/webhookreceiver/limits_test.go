package webhookreceiver

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
)

// trickle opens a connection to url, sends a delivery's headers promising
// a 100-byte body, then one byte every interval; it returns how long the
// listener took to answer and close the connection, and the answer.
func trickle(t *testing.T, url string, interval, giveUp time.Duration) (time.Duration, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(url, "http://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	start := time.Now()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n%s: %s\r\n%s: %s\r\n\r\n",
		apiclient.WebhookTimestampHeader, ts, apiclient.WebhookSignatureHeader, strings.Repeat("ab", 32))
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				if _, err := conn.Write([]byte("x")); err != nil {
					return
				}
			}
		}
	}()
	_ = conn.SetReadDeadline(time.Now().Add(giveUp))
	answer, _ := bufio.NewReader(conn).ReadString('\n')
	// After the answer the listener closes the connection: a read ends.
	buf := make([]byte, 4096)
	for {
		if _, err := conn.Read(buf); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatalf("the connection was still open after %s (answer %q)", giveUp, answer)
			}
			break
		}
	}
	return time.Since(start), answer
}

func TestABodySentSlowlyIsCutOff(t *testing.T) {
	rcv, err := New(Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	limits := DefaultLimits
	limits.BodyTimeout = 300 * time.Millisecond
	l, err := StartWithLimits("127.0.0.1:0", rcv, limits)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	took, answer := trickle(t, l.URL, 50*time.Millisecond, 5*time.Second)
	if took > 2*time.Second || !strings.Contains(answer, "408") {
		t.Fatalf("closed after %s with %q", took, answer)
	}
	h := rcv.History()
	if len(h) != 1 || h[0].Verified || !strings.Contains(h[0].Detail, "did not arrive in time") || h[0].Status != http.StatusRequestTimeout {
		t.Fatalf("history %+v", h)
	}
}

// The shipped limits: a body sent one byte a second is cut off within
// 15 s (10 s after its headers). This test takes about 10 s, beside the
// others.
func TestABodySentOneByteASecondIsClosedWithin15s(t *testing.T) {
	t.Parallel()
	rcv, err := New(Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	l, err := Start("127.0.0.1:0", rcv)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	took, answer := trickle(t, l.URL, time.Second, 15*time.Second)
	if took > 15*time.Second || !strings.Contains(answer, "408") {
		t.Fatalf("closed after %s with %q", took, answer)
	}
	t.Logf("a body sent 1 byte/s was answered %q and closed after %s", strings.TrimSpace(answer), took.Round(100*time.Millisecond))
}

// halfSent opens a connection to addr that sends half a request's
// headers and then nothing.
func halfSent(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Le")
	t.Cleanup(func() { conn.Close() })
	return conn
}

// closedByServer reports whether the server closed conn (a read ends at
// once instead of waiting).
func closedByServer(conn net.Conn) bool {
	_ = conn.SetReadDeadline(time.Now().Add(2 * time.Second))
	_, err := conn.Read(make([]byte, 1))
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// A full pool does not keep a new connection waiting behind stalled ones:
// the oldest connection still sending its request is dropped, and valid
// deliveries are answered.
func TestAFullPoolDropsTheOldestStalledConnection(t *testing.T) {
	rcv, err := New(Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	limits := DefaultLimits
	limits.MaxConns = 4
	l, err := StartWithLimits("127.0.0.1:0", rcv, limits)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	addr := strings.TrimSuffix(strings.TrimPrefix(l.URL, "http://"), "/")
	var held []net.Conn
	for range 16 {
		held = append(held, halfSent(t, addr))
	}
	for i := range 10 {
		resp, err := http.Post(l.URL, "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatalf("delivery %d: %v", i, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("delivery %d answered %d", i, resp.StatusCode)
		}
	}
	if !closedByServer(held[0]) {
		t.Error("the oldest stalled connection was kept")
	}
}

// waitIdle waits until a connection of the pool is idle.
func waitIdle(t *testing.T, p *connPool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		p.mu.Lock()
		idle := false
		for c := range p.open {
			idle = idle || c.idle.Load()
		}
		p.mu.Unlock()
		if idle {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no connection became idle")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An idle kept-alive connection is dropped before one still sending, even
// an older one.
func TestAFullPoolDropsIdleConnectionsFirst(t *testing.T) {
	rcv, err := New(Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	limits := DefaultLimits
	limits.MaxConns = 2
	l, err := StartWithLimits("127.0.0.1:0", rcv, limits)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	addr := strings.TrimSuffix(strings.TrimPrefix(l.URL, "http://"), "/")
	sending := halfSent(t, addr)
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	fmt.Fprintf(idle, "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
	if answer, _ := bufio.NewReader(idle).ReadString('\n'); !strings.Contains(answer, "401") {
		t.Fatalf("the kept-alive request was answered %q", answer)
	}
	waitIdle(t, l.ln.(*connPool)) // the server marks it idle once answered
	halfSent(t, addr)
	if !closedByServer(idle) {
		t.Error("the idle connection was kept")
	}
	_ = sending.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	if _, err := sending.Read(make([]byte, 1)); err == nil || !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the older connection still sending was dropped first: %v", err)
	}
}

func TestHistoryIsBoundedInBytes(t *testing.T) {
	rcv, err := New(Options{Key: testKey, HistoryBytes: 3 << 20, Now: func() time.Time { return t0 }})
	if err != nil {
		t.Fatal(err)
	}
	ts := strconv.FormatInt(t0.Unix(), 10)
	for i := range 10 {
		body := `{"n":` + strconv.Itoa(i) + `,"pad":"` + strings.Repeat("p", 900<<10) + `"}`
		req := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(body))
		req.Header.Set(apiclient.WebhookTimestampHeader, ts)
		req.Header.Set(apiclient.WebhookSignatureHeader, apiclient.SignWebhook(testKey, ts, []byte(body)))
		rcv.ServeHTTP(httptest.NewRecorder(), req)
	}
	h := rcv.History()
	kept := 0
	for _, d := range h {
		kept += len(d.Body)
	}
	if len(h) != 3 || h[0].Seq != 10 || kept > 3<<20 {
		t.Fatalf("history of %d deliveries, %d body bytes, newest #%d", len(h), kept, h[0].Seq)
	}
	if cap(h[0].Body) != len(h[0].Body) {
		t.Fatalf("a verified body is kept in a buffer of %d for %d bytes", cap(h[0].Body), len(h[0].Body))
	}
}

func TestBodyPrefixIsShortAndPrintable(t *testing.T) {
	for body, want := range map[string]string{
		"":                                  "",
		`{"a":1}`:                           `{"a":1}`,
		"a\x1b[2Jb\u202ec\u200bd\xffe\n":    "a.[2Jb.c.d.e.",
		strings.Repeat("é", 40):             strings.Repeat("é", 32) + "…",
		strings.Repeat("x", 63) + "é" + "y": strings.Repeat("x", 63) + "…",
	} {
		if got := bodyPrefix([]byte(body)); got != want {
			t.Errorf("bodyPrefix(%q) = %q, want %q", body, got, want)
		}
	}
}

func TestEventTypesFilter(t *testing.T) {
	r := &Receiver{opts: Options{EventTypes: []string{"card.frozen", "order.*"}}}
	for eventType, want := range map[string]bool{"card.frozen": true, "card.unfrozen": false, "order.status.changed": true,
		"orders.x": false, "": false} {
		if r.wanted(eventType) != want {
			t.Errorf("wanted(%q) = %v", eventType, !want)
		}
	}
	if !(&Receiver{}).wanted("anything") {
		t.Error("no filter refuses a type")
	}
}
