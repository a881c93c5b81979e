package webhookreceiver

// The history's default bounds: the latest deliveries, at most this many
// and this many bytes (bodies and headers), the oldest leaving first.
const (
	historySize  = 200
	historyBytes = 16 << 20
)

// history is the latest deliveries, oldest first, bounded by count and by
// bytes. Callers hold the receiver's lock.
type history struct {
	deliveries []Delivery
	bytes      int
	maxCount   int
	maxBytes   int
}

// add keeps d and lets the oldest go while either bound is passed (d
// itself stays, even alone over the byte bound: it is the newest).
func (h *history) add(d Delivery) {
	h.deliveries = append(h.deliveries, d)
	h.bytes += d.cost()
	for len(h.deliveries) > 1 && (len(h.deliveries) > h.maxCount || h.bytes > h.maxBytes) {
		h.bytes -= h.deliveries[0].cost()
		h.deliveries[0] = Delivery{} // its body goes now, not when the array is reallocated
		h.deliveries = h.deliveries[1:]
	}
}

// newestFirst is a copy of the list, newest first. The bodies are shared,
// never copied: they are not changed once kept.
func (h *history) newestFirst() []Delivery {
	n := len(h.deliveries)
	out := make([]Delivery, n)
	for i, d := range h.deliveries {
		out[n-1-i] = d
	}
	return out
}

// cost is about what a kept delivery holds in memory.
func (d Delivery) cost() int {
	return len(d.Body) + headerBytes(d.Header) + len(d.BodyPrefix) + len(d.Detail) + len(d.Path) +
		len(d.EventType) + len(d.EventID) + len(d.UserID) + len(d.OccurredAt) + 256
}
