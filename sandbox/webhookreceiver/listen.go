package webhookreceiver

import (
	"errors"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"cardterm/sandbox/internal/serverstop"
)

// Limits bound what one sender can hold of a listener: time to send the
// headers and the body, time a kept-alive connection may idle, how many
// connections are served at once, and the size of the headers. When every
// slot is taken, a new connection is not kept waiting behind slow ones:
// the oldest connection that is idle, or else still sending its request,
// is dropped to make room (conns.go); only requests being answered are
// never dropped.
type Limits struct {
	HeaderTimeout time.Duration // the request line and headers
	BodyTimeout   time.Duration // the body, from when the headers are in
	IdleTimeout   time.Duration // a kept-alive connection between requests
	WriteTimeout  time.Duration // the answer
	MaxConns      int           // connections served at once
	MaxHeader     int           // bytes of request line and headers
}

// DefaultLimits are the limits of `cardterm listen` and the in-app
// listener: a body sent one byte a second is cut off after 10 s.
var DefaultLimits = Limits{
	HeaderTimeout: 5 * time.Second,
	BodyTimeout:   10 * time.Second,
	IdleTimeout:   30 * time.Second,
	WriteTimeout:  10 * time.Second,
	MaxConns:      256,
	MaxHeader:     64 << 10,
}

// Listener is a Receiver served over HTTP on a local address.
type Listener struct {
	// URL is where deliveries go: http://HOST:PORT/.
	URL   string
	srv   *http.Server
	ln    net.Listener
	fresh serverstop.Fresh
}

// Start serves h on addr ("127.0.0.1:0" picks a free port) with
// DefaultLimits until Close.
func Start(addr string, h http.Handler) (*Listener, error) {
	return StartWithLimits(addr, h, DefaultLimits)
}

// StartWithLimits is Start with other limits (tests shorten them).
func StartWithLimits(addr string, h http.Handler, limits Limits) (*Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	pool := limitConns(ln, limits.MaxConns)
	l := &Listener{URL: "http://" + ln.Addr().String() + "/", ln: pool}
	l.srv = &http.Server{
		Handler:           bodyDeadline(answering(h), limits.BodyTimeout),
		ConnState:         func(c net.Conn, state http.ConnState) { noteConnState(c, state); l.fresh.Track(c, state) },
		ConnContext:       withConn,
		ReadHeaderTimeout: limits.HeaderTimeout,
		IdleTimeout:       limits.IdleTimeout,
		WriteTimeout:      limits.BodyTimeout + limits.WriteTimeout, // counted from the headers
		MaxHeaderBytes:    limits.MaxHeader,
	}
	go func() { _ = l.srv.Serve(l.ln) }()
	return l, nil
}

// Close stops accepting deliveries and waits up to 5 s for those under
// way; a connection idle or that has sent nothing yet is closed at once,
// so an app that quits does not linger for it (serverstop).
func (l *Listener) Close() error {
	return serverstop.Shutdown(l.srv, &l.fresh, 5*time.Second)
}

// bodyDeadline gives each request timeout to send its body, counted from
// when its headers are in; reading past it fails with a timeout. The
// deadline is lifted once the body is read to its end, so an answer that
// takes longer (a slow terminal printing it) does not cut the connection.
// A request without a body gets no deadline.
func bodyDeadline(h http.Handler, timeout time.Duration) http.Handler {
	if timeout <= 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Body != nil && req.Body != http.NoBody {
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(time.Now().Add(timeout))
			req.Body = &deadlineBody{ReadCloser: req.Body, lift: func() { _ = rc.SetReadDeadline(time.Time{}) }}
		}
		h.ServeHTTP(w, req)
	})
}

// deadlineBody lifts the read deadline when the body reaches its end.
type deadlineBody struct {
	io.ReadCloser
	once sync.Once
	lift func()
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.once.Do(b.lift)
	}
	return n, err
}
