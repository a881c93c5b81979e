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
// spinner and esc can cancel them. It is shared by all screens.
type Requests struct {
	mu       sync.Mutex
	last     RequestID
	inFlight map[RequestID]context.CancelFunc
}

// NewRequests returns an empty registry.
func NewRequests() *Requests {
	return &Requests{inFlight: map[RequestID]context.CancelFunc{}}
}

// Go starts fn in a command and returns the request's ID and that command.
// fn must capture values, never a model: it runs outside Update.
func Go[T any](r *Requests, fn func(ctx context.Context) (T, error)) (RequestID, tea.Cmd) {
	ctx, cancel := context.WithCancel(context.Background())
	r.mu.Lock()
	r.last++
	id := r.last
	r.inFlight[id] = cancel
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
	if cancel, ok := r.inFlight[id]; ok {
		cancel()
		delete(r.inFlight, id)
	}
}

// InFlight is how many requests have not answered yet.
func (r *Requests) InFlight() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.inFlight)
}

// CancelAll cancels every request in flight and reports how many there were.
// Their answers still arrive, carrying context.Canceled.
func (r *Requests) CancelAll() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.inFlight)
	for id, cancel := range r.inFlight {
		cancel()
		delete(r.inFlight, id)
	}
	return n
}
