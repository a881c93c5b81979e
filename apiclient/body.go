package apiclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Reading an answer's body: as it arrives, never whole first, within the
// body limit, with one message for each way it can fail.

// decodeBody reads a 2xx body as it arrives into r.out, or hands it to
// r.read; nothing reads the whole body first.
func decodeBody(body io.Reader, r request) error {
	switch {
	case r.read != nil:
		return r.read(body)
	case r.out == nil:
		_, err := io.Copy(io.Discard, body)
		return err
	}
	dec := json.NewDecoder(body)
	if err := dec.Decode(r.out); err != nil {
		return err
	}
	// Only white space may follow the value, as with json.Unmarshal.
	if _, err := dec.Token(); err != io.EOF {
		return errSyntax
	}
	return nil
}

// errEmptyBody is a 2xx answer without a body where one is expected.
var errEmptyBody = errors.New("empty body")

// bodyError explains why an answer's body could not be read: past the
// limit, cut by the network or the caller, empty, or not readable JSON.
func (c *Client) bodyError(ctx, actx context.Context, op string, status int, body *limitedBody, err error) error {
	switch {
	case body.tooLarge:
		return &Error{Op: op, Status: status,
			Message: fmt.Sprintf("the answer is larger than %d MiB, more than this client reads", c.bodyLimit()>>20)}
	case body.err != nil:
		return c.transportError(ctx, actx, op, body.err)
	case err == io.EOF || errors.Is(err, errEmptyBody):
		return &Error{Op: op, Status: status,
			Message: fmt.Sprintf("gateway answered %s with an empty body", statusText(status))}
	}
	var e *Error
	if errors.As(err, &e) {
		return err // the reader's own answer
	}
	return &Error{Op: op, Status: status,
		Message: fmt.Sprintf("gateway answered %s with a body this client cannot read", statusText(status)),
		Err:     err}
}

// limitedBody reads at most left bytes of an answer; one more makes it fail
// with tooLarge set. It records a read error of the body itself (network,
// cancellation), so that a decoder's error can be told from the network's.
type limitedBody struct {
	r        io.Reader
	left     int64
	tooLarge bool
	err      error
}

// errBodyTooLarge is what a read past the limit returns.
var errBodyTooLarge = errors.New("answer larger than the limit")

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.tooLarge {
		return 0, errBodyTooLarge
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	if int64(n) > l.left {
		l.tooLarge = true
		return 0, errBodyTooLarge
	}
	l.left -= int64(n)
	if err != nil && err != io.EOF {
		l.err = err
	}
	return n, err
}
