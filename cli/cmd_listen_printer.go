package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"sync"

	"cardterm/sandbox/webhookreceiver"
)

// listenPrinter prints deliveries as they come (a live row, or a JSON
// line) and the forwards as they finish; several senders may be answered
// at once, so it locks.
type listenPrinter struct {
	out  io.Writer
	live bool
	// routes are where verified deliveries are forwarded (--forward-to
	// as *, then each --forward); counts reads each target's counts.
	routes             []webhookreceiver.Route
	counts             func() []webhookreceiver.RouteCount
	mu                 sync.Mutex
	verified, rejected int
}

// forwarded reports whether a verified delivery of eventType goes to at
// least one target.
func (p *listenPrinter) forwarded(eventType string) bool {
	for _, r := range p.routes {
		if webhookreceiver.TypeMatches(r.Pattern, eventType) {
			return true
		}
	}
	return false
}

// delivered prints d. Piped, a verified delivery that is being forwarded
// waits for its forwards, so each line says how one forward went.
func (p *listenPrinter) delivered(d webhookreceiver.Delivery) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if d.Verified {
		p.verified++
	} else {
		p.rejected++
	}
	switch {
	case p.live:
		printDeliveryLine(p.out, d)
	case !(d.Verified && p.forwarded(d.EventType)):
		_, _ = p.out.Write(deliveryJSONLine(d, nil))
	}
}

// forwardDone prints how one of d's forwards went, with its target's
// counts: a row of its own on a terminal, the delivery's JSON line when
// piped.
func (p *listenPrinter) forwardDone(d webhookreceiver.Delivery) {
	p.mu.Lock()
	defer p.mu.Unlock()
	counts := p.countOf(d.Forward)
	if p.live {
		printForwardLine(p.out, d, counts)
		return
	}
	_, _ = p.out.Write(deliveryJSONLine(d, counts))
}

// countOf is the counts of the target a forward went to.
func (p *listenPrinter) countOf(f *webhookreceiver.ForwardResult) *webhookreceiver.RouteCount {
	if f == nil || p.counts == nil {
		return nil
	}
	for _, c := range p.counts() {
		if c.Pattern == f.Pattern && c.URL == f.URL {
			return &c
		}
	}
	return nil
}

// summary says, when listen stops, what it received and what each target
// got; piped, the targets' counts are also a last JSON line
// {"targets": [...]} on stdout.
func (p *listenPrinter) summary(notes io.Writer, ignored int64, filtered bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(notes, "Stopped: %d verified, %d rejected", p.verified, p.rejected)
	if filtered {
		fmt.Fprintf(notes, ", %d of other types", ignored)
	}
	fmt.Fprintln(notes, ".")
	if p.counts == nil || len(p.routes) == 0 {
		return
	}
	counts := p.counts()
	for _, c := range counts {
		fmt.Fprintln(notes, "  "+routeCountText(c))
	}
	if !p.live {
		b, _ := json.Marshal(map[string]any{"targets": counts})
		_, _ = p.out.Write(append(b, '\n'))
	}
}
