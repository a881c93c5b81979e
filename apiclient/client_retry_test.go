package apiclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeSleep records the waits instead of sleeping.
type fakeSleep struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (f *fakeSleep) sleep(ctx context.Context, d time.Duration) error {
	f.mu.Lock()
	f.waits = append(f.waits, d)
	f.mu.Unlock()
	return ctx.Err()
}

func TestGET429RetriesAfterRetryAfter(t *testing.T) {
	rec := newRecorder(t)
	var hits atomic.Int32
	rec.handle("GET /v1/card/status", func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) <= 2 {
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"message":"Too many requests"}`)
			return
		}
		fmt.Fprint(w, cardJSON)
	})
	c := testClient(rec)
	fs := &fakeSleep{}
	c.sleep = fs.sleep
	card, err := c.CardStatus(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if card.PanLast4 != "4242" || hits.Load() != 3 {
		t.Errorf("card %+v after %d hits", card, hits.Load())
	}
	if len(fs.waits) != 2 || fs.waits[0] != 2*time.Second || fs.waits[1] != 2*time.Second {
		t.Errorf("waits = %v", fs.waits)
	}
}

func TestGET429RetriesAtMostTwice(t *testing.T) {
	rec := newRecorder(t)
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(429) // no Retry-After: a short default wait
		fmt.Fprint(w, `{"message":"Too many requests"}`)
	})
	c := testClient(rec)
	fs := &fakeSleep{}
	c.sleep = fs.sleep
	_, err := c.User(context.Background())
	if !IsStatus(err, 429) {
		t.Fatalf("err = %v", err)
	}
	if n := rec.count("GET", "/v1/user"); n != 3 {
		t.Errorf("%d attempts, want 3", n)
	}
	// No Retry-After: a backoff that doubles, half of it random.
	if len(fs.waits) != 2 || fs.waits[0] < retryBase/2 || fs.waits[0] > retryBase ||
		fs.waits[1] < retryBase || fs.waits[1] > 2*retryBase {
		t.Errorf("waits = %v", fs.waits)
	}
}

func TestGET429RetryAfterBeyondBoundIsReturned(t *testing.T) {
	rec := newRecorder(t)
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "60")
		w.WriteHeader(429)
		fmt.Fprint(w, `{"message":"Too many requests"}`)
	})
	c := testClient(rec, func(cfg *Config) { cfg.MaxRetryWait = 5 * time.Second })
	fs := &fakeSleep{}
	c.sleep = fs.sleep
	_, err := c.User(context.Background())
	var e *Error
	if !errors.As(err, &e) || e.Status != 429 || e.RetryAfter != time.Minute {
		t.Fatalf("err = %#v", err)
	}
	if n := rec.count("GET", "/v1/user"); n != 1 || len(fs.waits) != 0 {
		t.Errorf("%d attempts, waits %v; want 1 and none", n, fs.waits)
	}
}

// With the real sleep: the wait actually happens and the answer arrives.
func TestGET429RealWait(t *testing.T) {
	rec := newRecorder(t)
	var hits atomic.Int32
	rec.handle("GET /v1/card/status", func(w http.ResponseWriter, r *http.Request) {
		if hits.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			return
		}
		fmt.Fprint(w, cardJSON)
	})
	c := testClient(rec, func(cfg *Config) { cfg.MaxRetryWait = 2 * time.Second })
	start := time.Now()
	if _, err := c.CardStatus(context.Background()); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el < 900*time.Millisecond {
		t.Errorf("answered after %v, Retry-After was 1s", el)
	}
}

func TestGET429WaitIsCancellable(t *testing.T) {
	rec := newRecorder(t)
	rec.handle("GET /v1/user", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "4")
		w.WriteHeader(429)
	})
	c := testClient(rec, func(cfg *Config) { cfg.MaxRetryWait = 5 * time.Second })
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.User(ctx)
	if el := time.Since(start); el > 2*time.Second {
		t.Errorf("cancel took %v", el)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.Status != 0 || e.Op != "User" {
		t.Errorf("err = %#v", err)
	}
	if got := ErrorMessage(err); got != "request cancelled while waiting to retry" {
		t.Errorf("ErrorMessage = %q", got)
	}
	if n := rec.count("GET", "/v1/user"); n != 1 {
		t.Errorf("%d attempts", n)
	}
}

func TestPOST429NotRetried(t *testing.T) {
	rec := newRecorder(t)
	for _, p := range []string{"/v1/card/freeze", "/v1/card/unfreeze", "/v1/card/order"} {
		rec.handle("POST "+p, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(429)
			fmt.Fprint(w, `{"message":"Too many requests"}`)
		})
	}
	c := testClient(rec)
	c.SetSession(Session{AccessToken: "a"})
	fs := &fakeSleep{}
	c.sleep = fs.sleep
	for name, call := range map[string]func(context.Context) error{
		"/v1/card/freeze":   c.FreezeCard,
		"/v1/card/unfreeze": c.UnfreezeCard,
		"/v1/card/order":    func(ctx context.Context) error { return c.OrderCard(ctx, CardPhysical) },
	} {
		err := call(context.Background())
		var e *Error
		if !errors.As(err, &e) || e.Status != 429 || e.RetryAfter != time.Second {
			t.Errorf("%s: err = %v", name, err)
		}
		if n := rec.count("POST", name); n != 1 {
			t.Errorf("%s sent %d times", name, n)
		}
	}
	if len(fs.waits) != 0 {
		t.Errorf("mutations waited: %v", fs.waits)
	}
}
