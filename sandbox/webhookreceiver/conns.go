package webhookreceiver

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// The listener's pool of connections. At most max are open at once; when
// all are taken, the next is accepted all the same and room is made by
// dropping the oldest connection that is idle between requests, or else
// the oldest still sending its request (a sender holding connections
// half-sent cannot keep valid deliveries out). A connection whose request
// is being answered is never dropped; when every one is, Accept waits.

// limitConns pools ln's connections (max <= 0: no pool).
func limitConns(ln net.Listener, max int) net.Listener {
	if max <= 0 {
		return ln
	}
	return &connPool{Listener: ln, slots: make(chan struct{}, max), open: map[*pooledConn]struct{}{}}
}

type connPool struct {
	net.Listener
	slots chan struct{}
	mu    sync.Mutex
	open  map[*pooledConn]struct{}
}

// Accept takes the next connection, making room for it when the pool is
// full.
func (p *connPool) Accept() (net.Conn, error) {
	conn, err := p.Listener.Accept()
	if err != nil {
		return nil, err
	}
	select {
	case p.slots <- struct{}{}:
	default:
		p.dropOldest()
		p.slots <- struct{}{} // waits only while every request is being answered
	}
	c := &pooledConn{Conn: conn, pool: p, since: time.Now()}
	p.mu.Lock()
	p.open[c] = struct{}{}
	p.mu.Unlock()
	return c, nil
}

// dropOldest closes the oldest idle connection, or else the oldest still
// receiving its request.
func (p *connPool) dropOldest() {
	p.mu.Lock()
	var idle, receiving *pooledConn
	for c := range p.open {
		switch {
		case c.answering.Load():
		case c.idle.Load():
			if idle == nil || c.since.Before(idle.since) {
				idle = c
			}
		default:
			if receiving == nil || c.since.Before(receiving.since) {
				receiving = c
			}
		}
	}
	p.mu.Unlock()
	if idle == nil {
		idle = receiving
	}
	if idle != nil {
		_ = idle.Close()
	}
}

// pooledConn is a connection of the pool: when it was accepted, and what
// it is doing.
type pooledConn struct {
	net.Conn
	pool      *connPool
	since     time.Time
	idle      atomic.Bool // between requests of a kept-alive connection
	answering atomic.Bool // its request is in, and being answered
	once      sync.Once
}

func (c *pooledConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() {
		c.pool.mu.Lock()
		delete(c.pool.open, c)
		c.pool.mu.Unlock()
		<-c.pool.slots
	})
	return err
}

// noteConnState is the server's ConnState hook: it marks a pooled
// connection idle between requests.
func noteConnState(conn net.Conn, state http.ConnState) {
	if c, ok := conn.(*pooledConn); ok {
		c.idle.Store(state == http.StateIdle)
	}
}

type connKey struct{}

// withConn is the server's ConnContext hook: a request's context carries
// its pooled connection.
func withConn(ctx context.Context, conn net.Conn) context.Context {
	if c, ok := conn.(*pooledConn); ok {
		return context.WithValue(ctx, connKey{}, c)
	}
	return ctx
}

// answering marks a request's connection as being answered once the
// request is in (its body read to the end, or none), until the handler
// returns: such a connection is never dropped.
func answering(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		c, _ := req.Context().Value(connKey{}).(*pooledConn)
		if c == nil {
			h.ServeHTTP(w, req)
			return
		}
		defer c.answering.Store(false)
		if req.Body == nil || req.Body == http.NoBody {
			c.answering.Store(true)
		} else {
			req.Body = &deadlineBody{ReadCloser: req.Body, lift: func() { c.answering.Store(true) }}
		}
		h.ServeHTTP(w, req)
	})
}
