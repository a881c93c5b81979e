package apiclient

import (
	"bytes"
	"context"
)

// The gateway's own answer, for look-ups that print it (--json): the client
// decodes as usual and hands the same bytes over, read once.

// rawCaptureKey carries a *[]byte through a context.
type rawCaptureKey struct{}

// CaptureBody returns a context under which the client copies the body of
// every answer into *dst (the last one wins), exactly as the gateway sent
// it; an error answer's with our own secrets redacted (redactBytes). Look-ups that print the gateway's own answer (--json)
// use it around the same typed call the screens make.
func CaptureBody(ctx context.Context, dst *[]byte) context.Context {
	return context.WithValue(ctx, rawCaptureKey{}, dst)
}

// wantsBody reports whether the caller asked for the body (CaptureBody).
func wantsBody(ctx context.Context) bool {
	dst, ok := ctx.Value(rawCaptureKey{}).(*[]byte)
	return ok && dst != nil
}

// captureBody stores body where CaptureBody asked for it.
func captureBody(ctx context.Context, body []byte) {
	if dst, ok := ctx.Value(rawCaptureKey{}).(*[]byte); ok && dst != nil {
		*dst = append((*dst)[:0], body...)
	}
}

// redactBytes replaces, in an error answer's body, the session's tokens,
// the secret key and extra (the request's own secrets) with [redacted],
// as redact does in an Error's texts: a gateway that echoes a credential
// must not get it printed.
func (c *Client) redactBytes(body []byte, extra ...string) []byte {
	s := c.Session()
	out := bytes.Clone(body)
	for _, secret := range append([]string{s.AccessToken, s.RefreshToken, c.secretKey()}, extra...) {
		if len(secret) >= 8 {
			out = bytes.ReplaceAll(out, []byte(secret), []byte("[redacted]"))
		}
	}
	return out
}
