package apiclient

import (
	"context"
	"net/http"
	"time"
)

// SandboxClock is the sandbox gateway's time (GET and POST /sandbox/clock,
// sandbox-only): its own, the wall clock's, and how far apart they are.
type SandboxClock struct {
	Now          time.Time `json:"now"`
	WallClock    time.Time `json:"wallClock"`
	Shift        string    `json:"shift"`
	ShiftSeconds int64     `json:"shiftSeconds"`
	Shifted      bool      `json:"shifted"`
	// Reversed are the pending authorizations a move expired.
	Reversed []string `json:"reversed,omitempty"`
}

// SandboxClockMove moves the sandbox's time: exactly one of Advance (7h,
// 31m, 185d), Set (an RFC 3339 time) or Reset.
type SandboxClockMove struct {
	Advance string `json:"advance,omitempty"`
	Set     string `json:"set,omitempty"`
	Reset   bool   `json:"reset,omitempty"`
}

// SandboxClockNow reads the sandbox gateway's time.
func (c *Client) SandboxClockNow(ctx context.Context) (SandboxClock, error) {
	var out SandboxClock
	err := c.do(ctx, request{op: "SandboxClock", method: http.MethodGet, path: "/sandbox/clock",
		family: familySecret, us: usNone, out: &out, sandboxOnly: true})
	return out, err
}

// SandboxClockSet moves the sandbox gateway's time.
func (c *Client) SandboxClockSet(ctx context.Context, move SandboxClockMove) (SandboxClock, error) {
	var out SandboxClock
	err := c.do(ctx, request{op: "SandboxClock", method: http.MethodPost, path: "/sandbox/clock",
		body: move, family: familySecret, us: usNone, out: &out, sandboxOnly: true})
	return out, err
}
