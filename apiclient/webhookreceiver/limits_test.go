package webhookreceiver

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
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

func TestConnectionsBeyondTheCapWait(t *testing.T) {
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
	var held []net.Conn
	for range 2 {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\n") // headers never finished
		held = append(held, conn)
	}
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Post(l.URL, "application/json", strings.NewReader("{}"))
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	select {
	case status := <-answered:
		t.Fatalf("a third connection was served (%d) while two held the cap", status)
	case <-time.After(300 * time.Millisecond):
	}
	held[0].Close()
	select {
	case status := <-answered:
		if status != http.StatusUnauthorized {
			t.Fatalf("answered %d", status)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting connection was not served once a slot freed")
	}
	held[1].Close()
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
