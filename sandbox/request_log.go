package sandbox

import (
	"bytes"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"
)

// requestLogSize bounds the request log: the latest requests are kept.
const requestLogSize = 10000

// LoggedRequest is one request the sandbox received: method and path only
// (never a query, a header or a body, where secrets travel), unless
// Options.RecordBodies asks for the query and the body too.
type LoggedRequest struct {
	Time   time.Time
	Method string
	Path   string
	// Query (as sent, escaped) and Body (at most recordedBodyMax bytes)
	// are kept only with Options.RecordBodies.
	Query string
	Body  []byte
}

// recordedBodyMax bounds a body kept in the log.
const recordedBodyMax = 64 << 10

// recordBody reads the request's body for the log and puts back what the
// handler reads: the same bytes, then whatever was past the bound.
func recordBody(r *http.Request) []byte {
	if r.Body == nil || r.Body == http.NoBody {
		return nil
	}
	kept, _ := io.ReadAll(io.LimitReader(r.Body, recordedBodyMax))
	r.Body = readCloser{io.MultiReader(bytes.NewReader(kept), r.Body), r.Body}
	return kept
}

// readCloser reads from one reader and closes another (the original body).
type readCloser struct {
	io.Reader
	io.Closer
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
