package cli

import (
	"context"
	"errors"
	"testing"
	"time"

	"cardterm/apiclient"
)

// A 429 makes wait pause for what Retry-After asks, not its interval.
func TestWaitHonoursRetryAfter(t *testing.T) {
	calls := 0
	target := waitTarget{what: "the card", states: waitStates("card"), look: func(context.Context) (string, error) {
		calls++
		if calls == 1 {
			return "", &apiclient.Error{Status: 429, RetryAfter: 700 * time.Millisecond}
		}
		return "FROZEN", nil
	}}
	start := time.Now()
	state, err := pollUntil(context.Background(), target, "FROZEN", 5*time.Second, 50*time.Millisecond, &waitProgress{})
	if err != nil || state != "FROZEN" || calls != 2 {
		t.Fatalf("state %q, err %v, calls %d", state, err, calls)
	}
	if took := time.Since(start); took < 700*time.Millisecond {
		t.Fatalf("asked again after %s, before Retry-After", took)
	}
	_, err = pollUntil(context.Background(), waitTarget{look: func(context.Context) (string, error) { return "ACTIVE", nil }},
		"FROZEN", 200*time.Millisecond, 50*time.Millisecond, &waitProgress{})
	if !errors.Is(err, errWaitTimedOut) {
		t.Fatalf("time-out: %v", err)
	}
}
