package sandbox

import (
	"slices"
	"sync"
	"time"
)

// requestLogSize bounds the request log: the latest requests are kept.
const requestLogSize = 10000

// LoggedRequest is one request the sandbox received: method and path only
// (never a query, a header or a body, where secrets travel).
type LoggedRequest struct {
	Time   time.Time
	Method string
	Path   string
}

// requestLog remembers the latest requests, so tests (and partners
// debugging a client) can see exactly which calls were made.
type requestLog struct {
	mu      sync.Mutex
	entries []LoggedRequest
}

func (l *requestLog) add(r LoggedRequest) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.entries) >= requestLogSize {
		l.entries = slices.Delete(l.entries, 0, len(l.entries)-requestLogSize+1)
	}
	l.entries = append(l.entries, r)
}

// Requests returns the requests received so far, oldest first (at most the
// latest 10,000).
func (s *Server) Requests() []LoggedRequest {
	s.requests.mu.Lock()
	defer s.requests.mu.Unlock()
	return slices.Clone(s.requests.entries)
}
