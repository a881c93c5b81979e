package ui

import (
	"context"
	"sync"

	tea "charm.land/bubbletea/v2"
)

// RequestID tags one request so that its answer can be matched to the screen
// state that asked for it; answers to older requests are dropped.
type RequestID uint64

// Result is the message a request started with Go sends back. Screens match
// it by type (Result[apiclient.Card]) and by ID.
type Result[T any] struct {
	ID    RequestID
	Value T
	Err   error
}

// Requests tracks the requests in flight so that the status bar can show a
// spinner and esc can cancel them. Every request belongs to the screen that
// started it, so esc on one screen never cancels another's.
type Requests struct {
	mu       sync.Mutex
	last     RequestID
	inFlight map[RequestID]inFlight
}

type inFlight struct {
	owner  ScreenID
	cancel context.CancelFunc
}

// NewRequests returns an empty registry.
func NewRequests() *Requests {
	return &Requests{inFlight: map[RequestID]inFlight{}}
}

// Owner is a screen's handle on the registry: the requests it starts are
// its own.
type Owner struct {
	requests *Requests
	screen   ScreenID
}

// For returns the handle through which a screen (and its sub-views) start
// requests.
func (r *Requests) For(screen ScreenID) Owner { return Owner{requests: r, screen: screen} }

// Cancel cancels the owner's requests in flight (a sub-view's "stop").
func (o Owner) Cancel() int { return o.requests.Cancel(o.screen) }

// CancelOne cancels one of the owner's requests in flight (a form's
// read it no longer needs), the owner's others going on; false when it has
// answered already. Its answer still arrives, carrying context.Canceled.
func (o Owner) CancelOne(id RequestID) bool {
	r := o.requests
	r.mu.Lock()
	defer r.mu.Unlock()
	f, ok := r.inFlight[id]
	if !ok || f.owner != o.screen {
		return false
	}
	f.cancel()
	delete(r.inFlight, id)
	return true
}

// Go starts fn in a command on behalf of the owner and returns the
// request's ID and that command. fn must capture values, never a model: it
// runs outside Update.
func Go[T any](o Owner, fn func(ctx context.Context) (T, error)) (RequestID, tea.Cmd) {
	r := o.requests
	ctx, cancel := context.WithCancel(context.Background())
	r.mu.Lock()
	r.last++
	id := r.last
	r.inFlight[id] = inFlight{owner: o.screen, cancel: cancel}
	r.mu.Unlock()
	return id, func() tea.Msg {
		defer r.finish(id)
		v, err := fn(ctx)
		return Result[T]{ID: id, Value: v, Err: err}
	}
}

func (r *Requests) finish(id RequestID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if f, ok := r.inFlight[id]; ok {
		f.cancel()
		delete(r.inFlight, id)
	}
}

// Start is Go for a screen that keeps one request of a kind: the
// request's ID goes to *id, the field the screen matches the answer
// against, and the command is returned.
func Start[T any](o Owner, id *RequestID, fn func(ctx context.Context) (T, error)) tea.Cmd {
	var cmd tea.Cmd
	*id, cmd = Go(o, fn)
	return cmd
}

// InFlight is how many requests have not answered yet.
func (r *Requests) InFlight() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.inFlight)
}

// InFlightFor is how many of one screen's requests have not answered yet.
func (r *Requests) InFlightFor(screen ScreenID) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, f := range r.inFlight {
		if f.owner == screen {
			n++
		}
	}
	return n
}

// Cancel cancels one screen's requests in flight and reports how many
// there were. Their answers still arrive, carrying context.Canceled.
func (r *Requests) Cancel(screen ScreenID) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for id, f := range r.inFlight {
		if f.owner == screen {
			f.cancel()
			delete(r.inFlight, id)
			n++
		}
	}
	return n
}

// CancelAll cancels every request in flight (sign-out, quit) and reports
// how many there were.
func (r *Requests) CancelAll() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.inFlight)
	for id, f := range r.inFlight {
		f.cancel()
		delete(r.inFlight, id)
	}
	return n
}
