package apiclient

import (
	"net/http"
	"time"
)

// SandboxTimeHeader is on the sandbox's answers while its clock was moved
// (cardterm sandbox clock): the sandbox's time, RFC 3339. The client notes
// how far that is from its own clock, so the app can say which time the
// gateway lives in.
const SandboxTimeHeader = "X-Sandbox-Time"

// noteSandboxTime records the shift an answer's headers give (none: the
// sandbox runs on the wall clock, or it is no sandbox).
func (c *Client) noteSandboxTime(h http.Header) {
	v := h.Get(SandboxTimeHeader)
	if v == "" || h.Get(SandboxHeader) != SandboxHeaderValue {
		c.sandboxShift.Store(0)
		return
	}
	at, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return
	}
	c.sandboxShift.Store(int64(at.Sub(c.now()).Round(time.Minute)))
}

// SandboxClockShift is how far the sandbox's clock runs from this one,
// as the latest answer said; ok is false while they agree.
func (c *Client) SandboxClockShift() (time.Duration, bool) {
	d := time.Duration(c.sandboxShift.Load())
	return d, d != 0
}
