package sandbox

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"cardterm/sandbox/internal/serverstop"
)

// Running is a sandbox gateway serving on a real listener (the embedded
// sandbox of `go run .` and `cardterm sandbox`).
type Running struct {
	URL string // base URL, e.g. http://127.0.0.1:41234
	// LinkURL is the base of the links it hands out (hosted pages, QR
	// codes): URL, or a LAN address or Options.PublicURL (public_url.go).
	LinkURL string
	Server  *Server // the gateway, for SetFaults and the like
	srv     *http.Server
	fresh   serverstop.Fresh
	done    chan error
}

// Start listens on addr ("127.0.0.1:0" picks a free port) and serves a new
// sandbox in a goroutine; the listener is ready when Start returns.
func Start(addr string, opts Options) (*Running, error) {
	return startWithLimits(addr, opts, serverLimits)
}

// startWithLimits is Start with other limits (tests shorten them).
func startWithLimits(addr string, opts Options, limits limits) (*Running, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("sandbox: listen %s: %w", addr, err)
	}
	s := New(opts)
	r := &Running{Server: s, done: make(chan error, 1)}
	r.LinkURL = linkBase(ln.Addr(), opts.PublicURL)
	r.URL = r.LinkURL
	if opts.PublicURL != "" {
		// Requests from this machine still go to the listener itself.
		r.URL = linkBase(ln.Addr(), "")
	}
	s.SetBaseURL(r.LinkURL)
	r.srv = newHTTPServer(s, limits)
	r.srv.ConnState = r.fresh.Track
	go func() {
		err := r.srv.Serve(limitConns(ln, limits.maxConns))
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		r.done <- err
	}()
	return r, nil
}

// shutdownGrace is how long Close lets requests in flight finish.
const shutdownGrace = 2 * time.Second

// Close stops the server at once but for requests in flight, which get
// shutdownGrace to finish: an app that quits does not linger for a
// keep-alive connection left open (serverstop).
func (r *Running) Close() error {
	r.Server.Close()
	err := serverstop.Shutdown(r.srv, &r.fresh, shutdownGrace)
	if serr := <-r.done; err == nil {
		err = serr
	}
	return err
}

// Describe is the text `cardterm sandbox` prints: where the gateway is, the
// (sandbox demo) credentials, and the demo users with what each shows.
func (r *Running) Describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Card and Wallet Gateway sandbox\n\n")
	fmt.Fprintf(&b, "Base URL     %s\n", r.URL)
	if r.LinkURL != r.URL {
		fmt.Fprintf(&b, "Links use    %s (hosted pages and QR codes)\n", r.LinkURL)
	}
	fmt.Fprintf(&b, "US backend   send header x-us-env: true\n")
	fmt.Fprintf(&b, "Faults       %s\n", r.Server.Faults().describe())
	if st := r.Server.opts.Store; st != nil {
		fmt.Fprintf(&b, "State        kept in %s (every change on disk before it is answered)\n", st.Path())
	} else {
		fmt.Fprintf(&b, "State        in memory (--data DIR keeps it across restarts)\n")
	}
	if r.Server.opts.AltShapes {
		fmt.Fprintf(&b, "Shapes       alternate: what the interface does not show is answered in another gateway's shapes\n")
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "Client credentials (sandbox demo values):\n")
	fmt.Fprintf(&b, "  %-8s %-11s %-19s %-19s %s\n", "TENANT", "ENV", "CLIENT KEY", "SECRET KEY", "CLIENT ID")
	for _, c := range credentials {
		fmt.Fprintf(&b, "  %-8s %-11s %-19s %-19s %s\n", c.Tenant, c.Environment, c.ClientKey, c.SecretKey, c.ClientID)
	}
	fmt.Fprintf(&b, "\nDemo users (password %s for all):\n", demoPassword)
	for _, u := range seedUsers.get() {
		fmt.Fprintf(&b, "  %-19s %-2s %-16s %s\n", u.username, u.region, u.tenant+"/"+u.env, u.summary)
	}
	fmt.Fprintf(&b, "\nTry: curl -s -H 'x-client-key: %s' -H 'Content-Type: application/json' \\\n", DemoClientKey)
	fmt.Fprintf(&b, "       -d '{\"username\":\"%s\",\"password\":\"%s\"}' %s/v1/auth/login\n", seedUsers.get()[0].username, demoPassword, r.URL)
	return b.String()
}

// limits bound what one client can hold of the sandbox: time to send the
// headers and the body, time a kept-alive connection may idle, how many
// connections are served at once (more wait to be accepted), and the size
// of the headers.
type limits struct {
	headerTimeout, bodyTimeout, idleTimeout time.Duration
	maxConns, maxHeader                     int
}

// serverLimits are the sandbox's: a body sent one byte a second is cut off
// after 10 s. Its answers are small and quick, so no write deadline is
// needed beyond the body's.
var serverLimits = limits{
	headerTimeout: 10 * time.Second,
	bodyTimeout:   10 * time.Second,
	idleTimeout:   60 * time.Second,
	maxConns:      128,
	maxHeader:     64 << 10,
}

func newHTTPServer(h http.Handler, l limits) *http.Server {
	return &http.Server{
		Handler:           bodyDeadline(h, l.bodyTimeout),
		ReadHeaderTimeout: l.headerTimeout,
		IdleTimeout:       l.idleTimeout,
		MaxHeaderBytes:    l.maxHeader,
	}
}

// bodyDeadline gives each request with a body timeout to send it, counted
// from when its headers are in; reading past it fails, and the handler
// answers as for a body it cannot read. A request without a body gets no
// deadline, so a long answer is never cut.
func bodyDeadline(h http.Handler, timeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Body != nil && req.Body != http.NoBody {
			rc := http.NewResponseController(w)
			_ = rc.SetReadDeadline(time.Now().Add(timeout))
			req.Body = &deadlineBody{ReadCloser: req.Body, clear: func() { _ = rc.SetReadDeadline(time.Time{}) }}
		}
		h.ServeHTTP(w, req)
	})
}

// deadlineBody lifts the read deadline once the body is read to its end,
// so a handler that answers slowly afterwards is not cut off.
type deadlineBody struct {
	io.ReadCloser
	once  sync.Once
	clear func()
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.once.Do(b.clear)
	}
	return n, err
}

// limitConns lets at most max connections be open at once: Accept waits
// for one to close before taking the next.
func limitConns(ln net.Listener, max int) net.Listener {
	return &connLimit{Listener: ln, slots: make(chan struct{}, max)}
}

type connLimit struct {
	net.Listener
	slots chan struct{}
}

func (l *connLimit) Accept() (net.Conn, error) {
	l.slots <- struct{}{}
	conn, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitedConn{Conn: conn, release: func() { <-l.slots }}, nil
}

type limitedConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}
