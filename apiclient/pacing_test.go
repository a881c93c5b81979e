package apiclient

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// movableClock is a clock the test moves by hand.
type movableClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *movableClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *movableClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// A 429 or 503 with a Retry-After longer than the client waits closes that
// endpoint until then: nothing reaches it before, the refusal says until
// when, other endpoints are untouched, and it opens when the time comes.
func TestRetryAfterClosesTheEndpointUntilItsTime(t *testing.T) {
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			rec := newRecorder(t)
			var limited atomic.Bool
			limited.Store(true)
			rec.handle("GET /v1/card/status", func(w http.ResponseWriter, r *http.Request) {
				if limited.Load() {
					w.Header().Set("Retry-After", "30")
					w.WriteHeader(status)
					fmt.Fprint(w, `{"message":"slow down"}`)
					return
				}
				fmt.Fprint(w, cardJSON)
			})
			rec.json("GET /v1/user", 200, `{"id":"u1"}`)
			clock := &movableClock{now: t0}
			c := signedInClient(rec, func(cfg *Config) { cfg.Now = clock.Now })
			fs := &fakeSleep{}
			c.sleep = fs.sleep
			ctx := context.Background()
			if _, err := c.CardStatus(ctx); !IsStatus(err, status) {
				t.Fatalf("first: %v", err)
			}
			for _, after := range []time.Duration{0, 10 * time.Second, 19 * time.Second} {
				clock.Add(after)
				_, err := c.CardStatus(ctx)
				if !IsRateLimited(err) {
					t.Fatalf("%v later: %v; want a refusal without sending", after, err)
				}
			}
			if n := rec.count("GET", "/v1/card/status"); n != 1 {
				t.Fatalf("the endpoint was sent %d requests within its Retry-After", n)
			}
			if _, err := c.User(ctx); err != nil {
				t.Fatalf("another endpoint was held back: %v", err)
			}
			if got := c.RetryAt("/v1/card/status"); !got.Equal(t0.Add(30 * time.Second)) {
				t.Errorf("RetryAt = %v", got)
			}
			limited.Store(false)
			clock.Add(time.Second) // 30 s after the answer
			if _, err := c.CardStatus(ctx); err != nil {
				t.Fatalf("at its time: %v", err)
			}
			if len(fs.waits) != 0 {
				t.Errorf("waited %v; a Retry-After beyond MaxRetryWait is returned", fs.waits)
			}
		})
	}
}

// A read answered 502, 503 or 504 without Retry-After is sent again after
// a jittered backoff, at most twice; a write never.
func TestReadsRetriedWithBackoffWritesNever(t *testing.T) {
	for _, status := range []int{502, 503, 504} {
		rec := newRecorder(t)
		rec.json("GET /v1/user", status, `{"message":"down"}`)
		rec.json("POST /v1/card/freeze", status, `{"message":"down"}`)
		c := signedInClient(rec)
		fs := &fakeSleep{}
		c.sleep = fs.sleep
		_, _ = c.User(context.Background())
		_ = c.FreezeCard(context.Background())
		if n := rec.count("GET", "/v1/user"); n != 3 {
			t.Errorf("%d: the read was sent %d times, want 3", status, n)
		}
		if n := rec.count("POST", "/v1/card/freeze"); n != 1 {
			t.Errorf("%d: the write was sent %d times, want 1", status, n)
		}
		if len(fs.waits) != 2 || fs.waits[0] < retryBase/2 || fs.waits[0] > retryBase {
			t.Errorf("%d: waits %v", status, fs.waits)
		}
	}
}

// However many requests a screen starts at once, at most MaxInFlight of
// one client are on the wire together.
func TestRequestsInFlightAreBounded(t *testing.T) {
	rec := newRecorder(t)
	var now, most atomic.Int32
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) {
		n := now.Add(1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(20 * time.Millisecond)
		now.Add(-1)
		fmt.Fprint(w, `{"id":"u1"}`)
	})
	c := signedInClient(rec, func(cfg *Config) { cfg.MaxInFlight = 3 })
	var wg sync.WaitGroup
	for range 12 {
		wg.Go(func() { _, _ = c.User(context.Background()) })
	}
	wg.Wait()
	if m := most.Load(); m > 3 || m == 0 {
		t.Errorf("%d requests were in flight at once, want at most 3", m)
	}
}
