package sandbox

import (
	"sync"
	"time"
)

// Clock is the sandbox's source of time. Token lifetimes, rate-limit windows
// and order timestamps all read it, so tests can move time instead of sleeping.
type Clock interface{ Now() time.Time }

// realClock is the wall clock, used when Options.Clock is nil.
type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// ManualClock is a Clock that only moves when told to, so tests can expire a
// 6-hour token or a 184-day refresh token instantly. Safe for concurrent use.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a ManualClock stopped at t.
func NewManualClock(t time.Time) *ManualClock { return &ManualClock{now: t} }

// Now reports the clock's current time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep is how the sandbox waits on this clock (webhook retry backoff): it
// moves the clock by d at once, so retries take no real time.
func (c *ManualClock) Sleep(d time.Duration) { c.Advance(d) }

// Advance moves the clock forward by d (backwards when d is negative).
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
