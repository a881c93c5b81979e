package webhookreceiver

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// Listener is a Receiver served over HTTP on a local address.
type Listener struct {
	// URL is where deliveries go: http://HOST:PORT/.
	URL string
	srv *http.Server
	ln  net.Listener
}

// Start serves h on addr ("127.0.0.1:0" picks a free port) until Close.
func Start(addr string, h http.Handler) (*Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	l := &Listener{URL: "http://" + ln.Addr().String() + "/", ln: ln,
		srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}}
	go func() { _ = l.srv.Serve(ln) }()
	return l, nil
}

// Close stops accepting deliveries and waits up to 5 s for those under way.
func (l *Listener) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := l.srv.Shutdown(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return l.srv.Close()
	}
	return err
}
