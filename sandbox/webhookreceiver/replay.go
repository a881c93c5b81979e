package webhookreceiver

import (
	"container/heap"
	"strconv"
	"strings"
	"time"
)

// replayCache remembers the signatures accepted while they could still pass
// the timestamp check, so memory is bounded by the deliveries of one
// window. Entries leave in order of expiry (a min-heap), so each delivery
// costs O(log n). Callers hold the receiver's lock.
type replayCache struct {
	expires map[string]time.Time
	queue   expiryHeap
}

func newReplayCache() replayCache { return replayCache{expires: map[string]time.Time{}} }

// add records sig until expiry and reports whether it was new. Signatures
// expired at now are forgotten first.
func (c *replayCache) add(sig string, expiry, now time.Time) bool {
	for len(c.queue) > 0 && c.queue[0].at.Before(now) {
		e := heap.Pop(&c.queue).(expiryEntry)
		if at, ok := c.expires[e.sig]; ok && !at.After(e.at) {
			delete(c.expires, e.sig)
		}
	}
	if _, ok := c.expires[sig]; ok {
		return false
	}
	c.expires[sig] = expiry
	heap.Push(&c.queue, expiryEntry{sig: sig, at: expiry})
	return true
}

// size is how many signatures are remembered.
func (c *replayCache) size() int { return len(c.expires) }

type expiryEntry struct {
	sig string
	at  time.Time
}

type expiryHeap []expiryEntry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h expiryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap) Push(x any)        { *h = append(*h, x.(expiryEntry)) }
func (h *expiryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// parseUnix reads an X-Timestamp already checked by Verify.
func parseUnix(ts string) (time.Time, error) {
	sec, err := strconv.ParseInt(strings.TrimSpace(ts), 10, 64)
	return time.Unix(sec, 0), err
}
