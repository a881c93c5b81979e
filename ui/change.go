package ui

import (
	"context"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
)

// ChangeSpec describes one change to the gateway's state: what the
// confirmation shows (the request first, then what it means), how to run
// it, and what to say when it is done.
type ChangeSpec[T any] struct {
	Title string
	// Request is the request that will be sent, e.g.
	// "POST /v1/card/freeze" and a body line; shown before anything else.
	Request []string
	// Lines say what the change means for the user.
	Lines        []string
	ConfirmLabel string
	Tone         theme.Tone
	// What names the change in notices: "freeze", "withdrawal".
	What string
	// Done is the notice after success; "" means "<What> done".
	Done string
	// Run sends the request; it captures values, never the model.
	Run func(ctx context.Context) (T, error)
	// Send is the request exactly, for copy as curl, when Request only
	// describes it; nil: Request is the request.
	Send *SentRequest
}

// ChangeResult is a change that finished, successfully or not. The screen
// re-reads what the change touched and reports it with the outcome.
type ChangeResult[T any] struct {
	Spec  ChangeSpec[T]
	Value T
	Err   error
}

// DoneText is the success notice of the change.
func (r ChangeResult[T]) DoneText() string {
	if r.Spec.Done != "" {
		return r.Spec.Done
	}
	return r.Spec.What + " done"
}

// Change is the one confirm → run → re-read → notify flow. It is its own
// double-press guard: while a change is being confirmed or is in flight,
// Ask does nothing.
type Change[T any] struct {
	owner   Owner
	id      uint64
	seq     int
	pending *ChangeSpec[T]
	running bool
	request RequestID
}

var changeIDs atomic.Uint64

// changeConfirmedMsg and changeCancelledMsg come back from the dialog,
// addressed to one flow and one question.
type (
	changeConfirmedMsg struct {
		flow uint64
		seq  int
	}
	changeCancelledMsg struct {
		flow uint64
		seq  int
	}
)

// NewChange returns a flow whose requests belong to the owner's screen.
func NewChange[T any](owner Owner) Change[T] {
	return Change[T]{owner: owner, id: changeIDs.Add(1)}
}

// Busy reports whether a change is being confirmed or is in flight.
func (c *Change[T]) Busy() bool { return c.pending != nil }

// Running reports whether the confirmed change's request is in flight.
func (c *Change[T]) Running() bool { return c.running }

// What names the pending change ("freeze"), for a line that says what is
// in progress; "" when none is.
func (c *Change[T]) What() string {
	if c.pending == nil {
		return ""
	}
	return c.pending.What
}

// Ask opens the confirmation, which shows the request that will be sent.
// It returns nil while another change of this flow is pending.
func (c *Change[T]) Ask(spec ChangeSpec[T]) tea.Cmd {
	if c.pending != nil {
		return nil
	}
	c.seq++
	c.pending = &spec
	return Confirm(ConfirmSpec{
		Title:        spec.Title,
		Request:      spec.Request,
		Lines:        spec.Lines,
		ConfirmLabel: spec.ConfirmLabel,
		Tone:         spec.Tone,
		OnConfirm:    changeConfirmedMsg{flow: c.id, seq: c.seq},
		OnCancel:     changeCancelledMsg{flow: c.id, seq: c.seq},
		Send:         spec.Send,
	})
}

// Update takes the dialog's answer and the request's result. done is true
// once, when the change has finished; the screen then re-reads and reports.
func (c *Change[T]) Update(msg tea.Msg) (res ChangeResult[T], done bool, cmd tea.Cmd) {
	switch msg := msg.(type) {
	case changeConfirmedMsg:
		if msg.flow != c.id || msg.seq != c.seq || c.pending == nil || c.running {
			return res, false, nil
		}
		c.running = true
		c.request, cmd = Go(c.owner, c.pending.Run)
		return res, false, cmd
	case changeCancelledMsg:
		if msg.flow == c.id && msg.seq == c.seq && !c.running {
			c.pending = nil
		}
	case Result[T]:
		if !c.running || msg.ID != c.request {
			return res, false, nil
		}
		spec := *c.pending
		c.pending, c.running = nil, false
		return ChangeResult[T]{Spec: spec, Value: msg.Value, Err: msg.Err}, true, nil
	}
	return res, false, nil
}

// Reset forgets a pending change (sign-out); a late answer is dropped.
func (c *Change[T]) Reset() {
	c.pending, c.running = nil, false
	c.seq++
}
