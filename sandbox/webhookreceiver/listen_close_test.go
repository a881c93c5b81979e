package webhookreceiver

import (
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Closing the listener with a connection that has sent nothing yet (a
// sender's spare, a browser's preconnect) is prompt: the app that quits
// does not wait the 5 s kept for deliveries under way.
func TestListenerCloseDoesNotWaitForAFreshConnection(t *testing.T) {
	l, err := Start("127.0.0.1:0", http.NotFoundHandler())
	if err != nil {
		t.Fatal(err)
	}
	spare, err := net.Dial("tcp", strings.TrimSuffix(strings.TrimPrefix(l.URL, "http://"), "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer spare.Close()
	time.Sleep(50 * time.Millisecond) // accepted: the server holds it
	start := time.Now()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > time.Second {
		t.Fatalf("Close took %v with only a fresh connection open", took)
	}
}
