package sandbox

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A body sent one byte at a time is cut off once its time is up, and the
// connection closed; a request without a body is never cut off.
func TestSandboxCutsOffASlowBody(t *testing.T) {
	limits := serverLimits
	limits.bodyTimeout = 300 * time.Millisecond
	r, err := startWithLimits("127.0.0.1:0", Options{}, limits)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	conn, err := net.Dial("tcp", strings.TrimPrefix(r.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	fmt.Fprintf(conn, "POST /v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nx-client-key: %s\r\nContent-Length: 200\r\n\r\n{", DemoClientKey)
	go func() {
		for range 50 {
			time.Sleep(50 * time.Millisecond)
			if _, err := conn.Write([]byte(" ")); err != nil {
				return
			}
		}
	}()
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	status, _ := bufio.NewReader(conn).ReadString('\n')
	// Closed: an end of stream, or a reset when the writer above still
	// had bytes on their way (the server closed with them unread). Only
	// the read deadline means it stayed open.
	if _, err := io.Copy(io.Discard, conn); err != nil && !errors.Is(err, syscall.ECONNRESET) {
		t.Fatalf("the connection stayed open: %v (answer %q)", err, status)
	}
	if took := time.Since(start); took > 2*time.Second || !strings.HasPrefix(status, "HTTP/1.1 4") {
		t.Fatalf("answered %q and closed after %s", status, took)
	}
	// A body sent in time is read whole, and the lifted deadline does not
	// cut a keep-alive connection's next request.
	client := &http.Client{}
	for range 2 {
		resp, err := client.Post(r.URL+"/v1/auth/login", "application/json",
			strings.NewReader(`{"username":"alice@demo.test","password":"demo-pass"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusRequestTimeout {
			t.Fatalf("a prompt body answered %d", resp.StatusCode)
		}
		time.Sleep(400 * time.Millisecond)
	}
}

func TestSandboxServerLimits(t *testing.T) {
	srv := newHTTPServer(http.NotFoundHandler(), serverLimits)
	if srv.ReadHeaderTimeout != 10*time.Second || srv.IdleTimeout == 0 || srv.MaxHeaderBytes != 64<<10 || serverLimits.bodyTimeout != 10*time.Second || serverLimits.maxConns == 0 {
		t.Fatalf("server %+v, limits %+v", srv, serverLimits)
	}
}
