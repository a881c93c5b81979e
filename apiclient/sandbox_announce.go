package apiclient

import (
	"context"
	"errors"
	"net/http"
)

// The sandbox gateway says what it is on every answer (the header
// SandboxHeader); the client notes the latest answer's word. Calls only
// the sandbox has (delivery logs, test events, resend, the request
// stream) go only to a gateway that said so, so no other gateway, on
// this machine or elsewhere, is ever sent a path outside the interface.
// Where a gateway lives says nothing: a loopback port may be anything.

// SandboxHeader is the header every answer of the cardterm sandbox
// carries, with the value SandboxHeaderValue.
const (
	SandboxHeader      = "X-Cardterm-Sandbox"
	SandboxHeaderValue = "1"
)

// What the client knows of its gateway (Client.sandbox).
const (
	gatewayUnknown int32 = iota
	gatewayIsSandbox
	gatewayNotSandbox
)

// errNotSandbox tags a sandbox-only call refused because the gateway did
// not announce itself as the sandbox.
var errNotSandbox = errors.New("the gateway is not the cardterm sandbox")

// IsNotSandbox reports whether err is a sandbox-only call refused because
// the gateway never announced itself as the sandbox.
func IsNotSandbox(err error) bool { return errors.Is(err, errNotSandbox) }

// noteGateway records what an answer's headers say the gateway is.
func (c *Client) noteGateway(h http.Header) {
	c.noteSandboxTime(h)
	if h.Get(SandboxHeader) == SandboxHeaderValue {
		c.sandbox.Store(gatewayIsSandbox)
	} else {
		c.sandbox.Store(gatewayNotSandbox)
	}
}

// AnnouncedSandbox reports whether the gateway announced itself as the
// cardterm sandbox. Before any answer it asks once with an operation of
// the interface that changes nothing (GET /v1/webhooks, which carries only
// the bearer token: at start, no credential at all; its answer, even a
// refusal, carries the announcement), so the question itself sends no
// path outside the interface. A gateway that cannot be reached is not the
// sandbox.
func (c *Client) AnnouncedSandbox(ctx context.Context) bool {
	if c.sandbox.Load() == gatewayUnknown {
		_ = c.send(ctx, request{op: "Discover", method: http.MethodGet, path: "/v1/webhooks", family: familyWebhook, us: usNone, discover: true}, c.Session().AccessToken)
	}
	return c.sandbox.Load() == gatewayIsSandbox
}

// requireSandbox refuses a sandbox-only request to a gateway that did
// not announce itself as the sandbox.
func (c *Client) requireSandbox(ctx context.Context, r request) error {
	if !r.sandboxOnly || c.AnnouncedSandbox(ctx) {
		return nil
	}
	return &Error{Op: r.op, Err: errNotSandbox,
		Message: r.method + " " + r.path + " is answered only by the cardterm sandbox, and this gateway did not announce itself as one; nothing was sent"}
}
