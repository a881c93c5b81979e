package sandbox

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// startForClose starts a sandbox whose Close the test times.
func startForClose(t *testing.T) (r *Running, addr string) {
	t.Helper()
	r, err := Start("127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r, strings.TrimPrefix(r.URL, "http://")
}

// Quitting with keep-alive connections open is prompt: an idle one after
// a request, and one a client's transport dialled and kept without
// sending anything (which Shutdown alone waits on for the whole grace).
func TestCloseDoesNotWaitForIdleConnections(t *testing.T) {
	r, addr := startForClose(t)
	client := &http.Client{Transport: &http.Transport{}}
	res, err := client.Get(r.URL + "/v1/health")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close() // kept alive, idle
	spare, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer spare.Close()
	time.Sleep(50 * time.Millisecond) // accepted: the server holds it
	start := time.Now()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > shutdownGrace/4 {
		t.Fatalf("Close took %v with only idle connections open; the grace is for requests in flight (%v)", took, shutdownGrace)
	}
}

// A request in flight when Close is called still gets its answer: only it
// is waited for.
func TestCloseLetsARequestInFlightFinish(t *testing.T) {
	r, addr := startForClose(t)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"username":"alice@demo.test","password":"demo-pass"}`
	_, _ = io.WriteString(conn, "POST /v1/auth/login HTTP/1.1\r\nHost: sandbox\r\nContent-Type: application/json\r\n"+
		"x-client-key: "+DemoClientKey+"\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body[:5])
	time.Sleep(50 * time.Millisecond) // the headers are in: the request is in flight
	closed := make(chan time.Duration, 1)
	go func() {
		start := time.Now()
		_ = r.Close()
		closed <- time.Since(start)
	}()
	time.Sleep(300 * time.Millisecond)
	_, _ = io.WriteString(conn, body[5:])
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("the request in flight got no answer: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("the request in flight got %d", res.StatusCode)
	}
	if took := <-closed; took < 250*time.Millisecond || took >= shutdownGrace {
		t.Fatalf("Close took %v: it should wait for the request in flight, within the grace", took)
	}
}
