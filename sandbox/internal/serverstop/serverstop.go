// Package serverstop stops an HTTP server the way an app that quits
// wants: at once, but for the requests in flight. http.Server.Shutdown
// closes idle keep-alive connections itself, yet waits up to 5 s for a
// connection that has sent no request yet (the spare a client's
// transport dialled and kept, a browser's preconnect); nothing is in
// flight on those, so they are closed too.
package serverstop

import (
	"context"
	"net"
	"net/http"
	"sync"
	"time"
)

// Fresh is the set of a server's connections that have sent no request
// yet. Its Track is (or is called from) the server's ConnState hook.
type Fresh struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// Track notes conn's state: fresh from its accept to its first request.
func (f *Fresh) Track(conn net.Conn, state http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if state != http.StateNew {
		delete(f.conns, conn)
		return
	}
	if f.conns == nil {
		f.conns = map[net.Conn]struct{}{}
	}
	f.conns[conn] = struct{}{}
}

// closeAll closes the fresh connections.
func (f *Fresh) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for conn := range f.conns {
		_ = conn.Close()
		delete(f.conns, conn)
	}
}

// Shutdown stops srv: its listeners, idle and fresh connections at once;
// requests in flight get grace to finish, after which every connection
// is closed. It returns Shutdown's error, or Close's after the grace.
func Shutdown(srv *http.Server, fresh *Fresh, grace time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Shutdown(ctx) }()
	// A connection accepted just before the listener closed may still
	// turn up fresh: they are closed as they show up, until the end.
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		fresh.closeAll()
		select {
		case err := <-done:
			if err != nil {
				return srv.Close()
			}
			return nil
		case <-tick.C:
		}
	}
}
