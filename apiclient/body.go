package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// Reading an answer's body: within the limit of its kind, never more than
// about twice its size in memory, with one message for each way it can
// fail.

// decodeBody reads a 2xx body into r.out, or hands it to r.read as it
// arrives. An answer decoded into r.out is read into one buffer of its
// size (readAnswer) and decoded from it: the buffer and the records, whose
// string fields share one copy of their text, cost about twice the answer,
// where json.Decoder's doubling buffer cost three times. size is the
// Content-Length (-1 when unknown). The bytes are returned for CaptureBody.
func decodeBody(body io.Reader, size int64, r request) ([]byte, error) {
	switch {
	case r.read != nil:
		return nil, r.read(body)
	case r.out == nil:
		_, err := io.Copy(io.Discard, body)
		return nil, err
	}
	data, err := readAnswer(body, size)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errEmptyBody
	}
	return data, json.Unmarshal(data, r.out)
}

// readAnswer reads body whole. With its size known the buffer is made once,
// exactly; otherwise the body is read into pieces of growing size and
// joined once at the end, so no buffer is copied at every doubling.
func readAnswer(body io.Reader, size int64) ([]byte, error) {
	if size >= 0 {
		buf := make([]byte, 0, size+1) // +1: EOF is seen without growing
		for {
			n, err := body.Read(buf[len(buf):cap(buf)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				return buf, nil
			}
			if err != nil {
				return nil, err
			}
			if len(buf) == cap(buf) {
				break // longer than announced: read the rest in pieces
			}
		}
		rest, err := readAnswer(body, -1)
		if err != nil {
			return nil, err
		}
		return append(buf, rest...), nil
	}
	var pieces [][]byte
	total, next := 0, 32<<10
	for {
		piece := make([]byte, next)
		n, err := io.ReadFull(body, piece)
		if n > 0 {
			pieces = append(pieces, piece[:n])
			total += n
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, err
		}
		next = min(next*2, 4<<20)
	}
	if len(pieces) == 1 {
		return pieces[0], nil
	}
	out := make([]byte, 0, total)
	for _, p := range pieces {
		out = append(out, p...)
	}
	return out, nil
}

// errEmptyBody is a 2xx answer without a body where one is expected.
var errEmptyBody = errors.New("empty body")

// bodyError explains why an answer's body could not be read: past the
// limit, a compression bomb, cut by the network or the caller, empty, or
// not readable JSON.
func (c *Client) bodyError(ctx, actx context.Context, op string, status int, body *limitedBody, err error) error {
	switch {
	case body.tooLarge:
		return &Error{Op: op, Status: status,
			Message: fmt.Sprintf("the answer is larger than %s, more than this client reads", formatSize(body.limit))}
	case errors.Is(body.err, errCompressionBomb):
		return &Error{Op: op, Status: status,
			Message: fmt.Sprintf("the answer grows more than %d times when decompressed; this client stopped reading it", maxExpansion),
			Err:     errCompressionBomb}
	case errors.Is(err, errElementTooLarge):
		return &Error{Op: op, Status: status,
			Message: fmt.Sprintf("an element of the answer is larger than %s, more than this client reads", formatSize(maxStreamElement)),
			Err:     errElementTooLarge}
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

// formatSize is a limit in the unit that says it: "16 MiB", "64 KiB".
func formatSize(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// limitedBody reads at most limit bytes of an answer; one more makes it
// fail with tooLarge set. It records a read error of the body itself
// (network, cancellation, a compression bomb), so that a decoder's error
// can be told from the network's.
type limitedBody struct {
	r        io.Reader
	limit    int64
	read     int64
	tooLarge bool
	err      error
}

// errBodyTooLarge is what a read past the limit returns.
var errBodyTooLarge = errors.New("answer larger than the limit")

func (l *limitedBody) Read(p []byte) (int, error) {
	if l.tooLarge {
		return 0, errBodyTooLarge
	}
	left := l.limit - l.read
	if int64(len(p)) > left {
		p = p[:left+1]
	}
	n, err := l.r.Read(p)
	if int64(n) > left {
		l.tooLarge = true
		return 0, errBodyTooLarge
	}
	l.read += int64(n)
	if err != nil && err != io.EOF {
		l.err = err
	}
	return n, err
}
