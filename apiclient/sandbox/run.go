package sandbox

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
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
	done    chan error
}

// Start listens on addr ("127.0.0.1:0" picks a free port) and serves a new
// sandbox in a goroutine; the listener is ready when Start returns.
func Start(addr string, opts Options) (*Running, error) {
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
	r.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		err := r.srv.Serve(ln)
		if errors.Is(err, http.ErrServerClosed) {
			err = nil
		}
		r.done <- err
	}()
	return r, nil
}

// Close stops the server, giving requests in flight a moment to finish.
func (r *Running) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	r.Server.Close()
	err := r.srv.Shutdown(ctx)
	if err != nil {
		err = r.srv.Close()
	}
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
	for _, u := range seedUsers {
		fmt.Fprintf(&b, "  %-19s %-2s %-16s %s\n", u.username, u.region, u.tenant+"/"+u.env, u.summary)
	}
	fmt.Fprintf(&b, "\nTry: curl -s -H 'x-client-key: %s' -H 'Content-Type: application/json' \\\n", DemoClientKey)
	fmt.Fprintf(&b, "       -d '{\"username\":\"%s\",\"password\":\"%s\"}' %s/v1/auth/login\n", seedUsers[0].username, demoPassword, r.URL)
	return b.String()
}
