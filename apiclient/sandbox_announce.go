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
	if c.cfg.Sandbox {
		return // known from the start: a proxy in between changes nothing
	}
	if h.Get(SandboxHeader) == SandboxHeaderValue {
		c.sandbox.Store(gatewayIsSandbox)
	} else {
		c.sandbox.Store(gatewayNotSandbox)
	}
}

// AnnouncedSandbox reports whether the gateway is known to be the cardterm
// sandbox: the client was made knowing it (Config.Sandbox), or an answer
// said so. When no answer has been heard yet, it asks once with a read of
// the interface that changes nothing, and only with that read's required
// credentials: signed in, GET /v1/webhooks (Authorization); else, with a
// client key, GET /v2/consent/onboarding/{id} for an id no onboarding
// has (x-client-key; its 404 carries the announcement). With neither it
// sends nothing and reports false. Only a sandbox-only call (or a plain
// http webhook url) asks, so nothing leaves before someone acts.
func (c *Client) AnnouncedSandbox(ctx context.Context) bool {
	if c.sandbox.Load() != gatewayUnknown {
		return c.KnownSandbox()
	}
	switch token := c.Session().AccessToken; {
	case token != "":
		_ = c.send(ctx, request{op: "Discover", method: http.MethodGet, path: "/v1/webhooks", family: familyWebhook, us: usNone}, token)
	case c.cfg.ClientKey != "":
		_ = c.send(ctx, request{op: "Discover", method: http.MethodGet, path: pathf("/v2/consent/onboarding/%s", discoverOnboardingID),
			family: familyClient, us: usHeader}, "")
	}
	return c.KnownSandbox()
}

// discoverOnboardingID is the onboarding id AnnouncedSandbox looks up
// signed out: it names what it is for in the gateway's logs.
const discoverOnboardingID = "cardterm-is-this-the-sandbox"

// KnownSandbox reports what the client knows without asking: whether it
// was made for the sandbox or an answer announced it.
func (c *Client) KnownSandbox() bool { return c.sandbox.Load() == gatewayIsSandbox }

// KnowsGateway reports whether the client knows what its gateway is
// (made for the sandbox, or any answer heard).
func (c *Client) KnowsGateway() bool { return c.sandbox.Load() != gatewayUnknown }

// secretKey is the x-secret-key to send: the configured one, else the
// sandbox's demo key once the gateway is known to be the sandbox.
func (c *Client) secretKey() string {
	if c.cfg.SecretKey == "" && c.KnownSandbox() {
		return c.cfg.SandboxSecretKey
	}
	return c.cfg.SecretKey
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

// OrderClientID is the X-Client-ID the order endpoints are sent with, or
// "" when none is configured (they are then refused before sending).
func (c *Client) OrderClientID() string { return c.clientID() }

// clientID is the X-Client-ID to send: the configured one, else the
// sandbox's demo id once the gateway is known to be the sandbox. Never
// the client key: the interface names them apart.
func (c *Client) clientID() string {
	if c.cfg.ClientID == "" && c.KnownSandbox() {
		return c.cfg.SandboxClientID
	}
	return c.cfg.ClientID
}
