package webhookreceiver

import (
	"fmt"
	"strings"
	"sync"
)

// Routing: each Route sends the verified deliveries whose event type
// matches its pattern to its URL, through a queue and goroutines of its
// own, so a target that is down or slow holds up no other. Every route
// counts what became of its forwards.

// Route forwards deliveries of the event types Pattern matches ("card.*",
// "kyc.status.changed", "*") to URL.
type Route struct {
	Pattern string
	URL     string
}

// ParseRoute reads PATTERN=URL (listen --forward 'card.*=http://…').
func ParseRoute(text string) (Route, error) {
	pattern, target, ok := strings.Cut(text, "=")
	pattern, target = strings.TrimSpace(pattern), strings.TrimSpace(target)
	if !ok || pattern == "" || target == "" {
		return Route{}, fmt.Errorf("%q: write PATTERN=URL, such as 'card.*=http://localhost:3000/cards'", text)
	}
	if strings.Contains(strings.TrimSuffix(pattern, ".*"), "*") && pattern != "*" {
		return Route{}, fmt.Errorf("%q: the pattern is an event type, a category (card.*) or *", text)
	}
	return Route{Pattern: pattern, URL: target}, nil
}

// RouteCount is what became of a route's forwards so far.
type RouteCount struct {
	Pattern   string `json:"pattern"`
	URL       string `json:"url"`
	Queued    int64  `json:"queued"`    // handed to its queue
	Forwarded int64  `json:"forwarded"` // answered 2xx
	Failed    int64  `json:"failed"`    // answered otherwise, or no answer
	Dropped   int64  `json:"dropped"`   // never sent: the queue was full or the listener stopped
}

// Pending is how many forwards are queued or under way.
func (c RouteCount) Pending() int64 { return c.Queued - c.Forwarded - c.Failed - c.Dropped }

// route is one Route with its forwarder and counts.
type route struct {
	Route
	forward *forwarder
	mu      sync.Mutex
	count   RouteCount
}

// newRoute builds a route whose forwards report to done.
func newRoute(r Route, opts Options, chaos *Chaos) (*route, error) {
	out := &route{Route: r, count: RouteCount{Pattern: r.Pattern, URL: r.URL}}
	f, err := newForwarder(r.URL, opts.ForwardClient, func(d Delivery) {
		d.Forward.Pattern = r.Pattern
		out.tally(*d.Forward)
		if opts.OnForward != nil {
			opts.OnForward(d)
		}
	}, chaos)
	out.forward = f
	return out, err
}

// tally counts one forward's outcome.
func (r *route) tally(res ForwardResult) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case res.Status >= 200 && res.Status < 300:
		r.count.Forwarded++
	case strings.HasPrefix(res.Error, "not forwarded"):
		r.count.Dropped++
	default:
		r.count.Failed++
	}
}

// enqueue hands d to the route's queue when its type matches.
func (r *route) enqueue(d Delivery) {
	if !TypeMatches(r.Pattern, d.EventType) {
		return
	}
	r.mu.Lock()
	r.count.Queued++
	r.mu.Unlock()
	r.forward.enqueue(d)
}

// TypeMatches reports whether eventType is one pattern names: the type
// itself, its category (card.*) or every type (*).
func TypeMatches(pattern, eventType string) bool {
	if pattern == eventType || pattern == "*" {
		return true
	}
	category, ok := strings.CutSuffix(pattern, ".*")
	return ok && strings.HasPrefix(eventType, category+".")
}

// RouteCounts is what became of each route's forwards, in the order the
// routes were given (ForwardTo first, as the route *).
func (r *Receiver) RouteCounts() []RouteCount {
	out := make([]RouteCount, 0, len(r.routes))
	for _, rt := range r.routes {
		rt.mu.Lock()
		out = append(out, rt.count)
		rt.mu.Unlock()
	}
	return out
}
