package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/ui/sanitize"
)

// waitTarget is something `cardterm wait` watches: its states as the
// gateway names them, which of them never change, and how to read its
// state now.
type waitTarget struct {
	what   string   // "order 6f1c…", for messages
	states []string // every state the gateway gives it
	final  []string // states it never leaves
	// look reads the state now. A 404 while the target does not exist yet
	// (a delivery not sent yet) is answered "" and no error.
	look func(ctx context.Context) (string, error)
}

// errWaitTimedOut is the time-out (exit 1, as a refusal).
var errWaitTimedOut = errors.New("timed out")

// waitProgress writes the progress line on stderr when it is a terminal.
type waitProgress struct {
	w       io.Writer // nil: no terminal, no progress
	width   int       // the terminal's columns: a wrapped line could not be rewritten
	started time.Time
	shown   bool
}

// show rewrites the progress line.
func (p *waitProgress) show(target waitTarget, want, state string) {
	if p.w == nil {
		return
	}
	if state == "" {
		state = "not there yet"
	}
	line := fmt.Sprintf("%s: %s; waiting for %s (%s)", sanitize.Text(target.what), sanitize.Text(state), want,
		time.Since(p.started).Round(time.Second))
	if p.width > 1 {
		line = ansi.Truncate(line, p.width-1, "…")
	}
	fmt.Fprint(p.w, "\r\x1b[K"+line)
	p.shown = true
}

// clear removes the progress line before the outcome is printed.
func (p *waitProgress) clear() {
	if p.w != nil && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// pollUntil reads target's state every interval until it is want (nil),
// a final state that is not want (an error saying so), the time-out
// (errWaitTimedOut) or a failure the gateway or the network gives. A 429
// or 503 waits what Retry-After asks (at least interval) and goes on.
func pollUntil(ctx context.Context, target waitTarget, want string, timeout, interval time.Duration, progress *waitProgress) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	state := ""
	for {
		pause := interval
		got, err := target.look(ctx)
		var apiErr *apiclient.Error
		switch {
		case ctx.Err() != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
			return state, errWaitTimedOut
		case errors.As(err, &apiErr) && (apiErr.Status == http.StatusTooManyRequests || apiErr.Status == http.StatusServiceUnavailable):
			pause = max(pause, apiErr.RetryAfter)
		case err != nil:
			return state, err
		default:
			state = got
		}
		progress.show(target, want, state)
		switch {
		case state == want:
			return state, nil
		case slices.Contains(target.final, state):
			return state, fmt.Errorf("%s is %s, which is final: it will never be %s", target.what, state, want)
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return state, errWaitTimedOut
			}
			return state, ctx.Err()
		case <-time.After(pause):
		}
	}
}

// checkWaitState refuses a state the target never has, listing those it has.
func checkWaitState(target waitTarget, want string) error {
	if slices.Contains(target.states, want) {
		return nil
	}
	return usageError{fmt.Sprintf("--status %q: %s is one of %s (as the gateway names them)", want,
		strings.SplitN(target.what, " ", 2)[0], strings.Join(target.states, ", "))}
}
