package sandbox

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// GET /sandbox/logs (SANDBOX-ONLY; client key and secret key) streams the
// requests the sandbox answers from then on, one JSON object a line
// (application/x-ndjson): {time, method, path, status, durationMs, tenant}.
// A caller sees its own tenant and environment's requests (both regions),
// and only those: a request refused before its backend was known (a bad
// bearer token, a wrong secret key) is its tenant's when it carried the
// tenant's client key (tenant "TENANT/ENV/", no region), and one that
// carried no known client key is shown to nobody. Never a query, a header or a body:
// tokens, keys and PINs travel there. The stream's own requests are not
// listed. While nobody listens the sandbox records nothing (no cost).

// logsPath is the streaming endpoint, left out of what it streams.
const logsPath = "/sandbox/logs"

// AnsweredRequest is one answered request as the log stream carries it.
type AnsweredRequest struct {
	Time       time.Time `json:"time"`
	Method     string    `json:"method"`
	Path       string    `json:"path"` // escaped, without the query
	Status     int       `json:"status"`
	DurationMs int64     `json:"durationMs"`
	Tenant     string    `json:"tenant"` // tenant/environment/region (no region when refused before it was known)
}

// tailBuffer is how many answered requests wait for a slow reader before
// the next ones are counted as dropped.
const tailBuffer = 1024

// requestTail hands answered requests to the streams listening.
type requestTail struct {
	listening atomic.Int32
	mu        sync.Mutex
	subs      map[*tailSubscriber]bool
}

// tailSubscriber is one stream: the partner it shows ("tenant/env/").
type tailSubscriber struct {
	partner string
	ch      chan AnsweredRequest
	dropped atomic.Int64
}

func (t *requestTail) subscribe(partner string) *tailSubscriber {
	sub := &tailSubscriber{partner: partner, ch: make(chan AnsweredRequest, tailBuffer)}
	t.mu.Lock()
	if t.subs == nil {
		t.subs = map[*tailSubscriber]bool{}
	}
	t.subs[sub] = true
	t.mu.Unlock()
	t.listening.Add(1)
	return sub
}

func (t *requestTail) unsubscribe(sub *tailSubscriber) {
	t.mu.Lock()
	delete(t.subs, sub)
	t.mu.Unlock()
	t.listening.Add(-1)
}

// publish gives a to every stream that shows its tenant, never waiting.
func (t *requestTail) publish(a AnsweredRequest) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for sub := range t.subs {
		if a.Tenant == "" || !strings.HasPrefix(a.Tenant+"/", sub.partner) {
			continue
		}
		select {
		case sub.ch <- a:
		default:
			sub.dropped.Add(1)
		}
	}
}

// requestNote is where a route notes the tenant it resolved, for the log.
type requestNote struct{ tenant string }

type requestNoteKey struct{}

// noteTenant records the call's backend for the log stream, when one listens.
func (c *call) noteTenant() {
	if note, ok := c.r.Context().Value(requestNoteKey{}).(*requestNote); ok && c.be != nil {
		note.tenant = c.be.key.String()
	}
}

// tailed wraps a request so its answer is published when it is done; it
// returns w and r unchanged while nobody listens.
func (s *Server) tailed(w http.ResponseWriter, r *http.Request) (http.ResponseWriter, *http.Request, func()) {
	if s.tail.listening.Load() == 0 || r.URL.Path == logsPath {
		return w, r, func() {}
	}
	rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
	note := &requestNote{}
	r = r.WithContext(context.WithValue(r.Context(), requestNoteKey{}, note))
	start := time.Now()
	method, path := r.Method, r.URL.EscapedPath()
	presented := presentedTenant(r)
	return rec, r, func() {
		tenant := note.tenant
		if tenant == "" {
			tenant = presented
		}
		s.tail.publish(AnsweredRequest{Time: s.now().UTC(), Method: method, Path: path, Status: rec.status,
			DurationMs: time.Since(start).Milliseconds(), Tenant: tenant})
	}
}

// presentedTenant is "TENANT/ENV/" of the client key a request carried
// (x-client-key, or X-Client-ID on orders), or "" for none we know.
func presentedTenant(r *http.Request) string {
	for _, name := range []string{"x-client-key", "X-Client-ID"} {
		if cred, ok := credByKey(r.Header.Get(name)); ok {
			return cred.Tenant + "/" + cred.Environment + "/"
		}
	}
	return ""
}

// statusRecorder remembers the status of an answer.
type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (w *statusRecorder) WriteHeader(status int) {
	if !w.wrote {
		w.status, w.wrote = status, true
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusRecorder) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

func (w *statusRecorder) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusRecorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// logsRoute: GET /sandbox/logs, until the caller or the sandbox stops.
func (s *Server) logsRoute(c *call) {
	sub := s.tail.subscribe(c.be.key.Tenant + "/" + c.be.key.Env + "/")
	defer s.tail.unsubscribe(sub)
	// A stream outlives any write timeout the server sets for answers.
	_ = http.NewResponseController(c.w).SetWriteDeadline(time.Time{})
	h := c.w.Header()
	h.Set("Content-Type", "application/x-ndjson")
	h.Set("Cache-Control", "no-store")
	c.w.WriteHeader(http.StatusOK)
	flush := func() { _ = http.NewResponseController(c.w).Flush() }
	flush()
	enc := json.NewEncoder(c.w)
	for {
		select {
		case a := <-sub.ch:
			if n := sub.dropped.Swap(0); n > 0 {
				_ = enc.Encode(map[string]int64{"dropped": n})
			}
			if enc.Encode(a) != nil {
				return
			}
			flush()
		case <-c.r.Context().Done():
			return
		case <-s.quit:
			return
		}
	}
}
