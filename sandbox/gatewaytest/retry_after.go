package gatewaytest

import (
	"net/http"
	"regexp"
	"strconv"
	"sync"
	"time"
)

// RetryAfter answers one endpoint (Path, or the paths Pattern matches)
// 429 with Retry-After: Seconds for the first Seconds after
// it was first asked (by Now, the test's clock), and
// passes everything else, and that endpoint afterwards, to Next. It keeps
// the time of each request to the endpoint, so a test can say none came
// before the time it named.
type RetryAfter struct {
	Next    http.Handler
	Method  string
	Path    string
	Pattern *regexp.Regexp
	Seconds int
	Now     func() time.Time

	mu    sync.Mutex
	first time.Time
	hits  []time.Time
}

func (g *RetryAfter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	matched := r.URL.Path == g.Path || g.Pattern != nil && g.Pattern.MatchString(r.URL.Path)
	if r.Method != g.Method || !matched {
		g.Next.ServeHTTP(w, r)
		return
	}
	now := g.Now()
	g.mu.Lock()
	g.hits = append(g.hits, now)
	if g.first.IsZero() {
		g.first = now
	}
	limited := now.Before(g.first.Add(time.Duration(g.Seconds) * time.Second))
	g.mu.Unlock()
	if !limited {
		g.Next.ServeHTTP(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Retry-After", strconv.Itoa(g.Seconds))
	w.WriteHeader(http.StatusTooManyRequests)
	_, _ = w.Write([]byte(`{"message":"Too many requests"}`))
}

// Hits are the times the endpoint was asked, by Now.
func (g *RetryAfter) Hits() []time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]time.Time(nil), g.hits...)
}

// Early is how many requests reached the endpoint later than its first
// 429 and before the time its Retry-After named.
func (g *RetryAfter) Early() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	n := 0
	until := g.first.Add(time.Duration(g.Seconds) * time.Second)
	for _, at := range g.hits {
		// Requests at the first's instant may have been sent with it,
		// before its answer: a test moves its clock between steps.
		if at.After(g.first) && at.Before(until) {
			n++
		}
	}
	return n
}
