package sandbox

import "net/http"

// succeedUnless answers {"success": true}, or status with msg when msg
// says why the change was refused: the end of the handlers that decide
// under the lock and answers after it.
func (c *call) succeedUnless(status int, msg string) {
	if msg != "" {
		c.fail(status, msg)
		return
	}
	c.json(http.StatusOK, success)
}

// answerFound answers 200 with the body find returns, or 404 with missing
// when find returns nil. find runs with s.mu held, so it may read and change
// the record it looks up: the one path of the handlers that act on one
// record under the lock and answer after it.
func (c *call) answerFound(missing string, find func() any) {
	c.s.mu.Lock()
	out := find()
	c.s.mu.Unlock()
	if out == nil {
		c.fail(http.StatusNotFound, missing)
		return
	}
	c.json(http.StatusOK, out)
}

// convertAll converts each item of in, in order. The result is never nil,
// so an empty list is answered as [] and not null.
func convertAll[T, U any](in []T, convert func(T) U) []U {
	out := make([]U, 0, len(in))
	for _, item := range in {
		out = append(out, convert(item))
	}
	return out
}

// inShape is out as the interface shapes it or, when the sandbox runs with
// AltShapes, alt(out): the one place a handler picks which shape its record
// goes out in.
func inShape[T, Alt any](s *Server, out T, alt func(T) Alt) any {
	if s.opts.AltShapes {
		return alt(out)
	}
	return out
}

// answerInShape answers 200 with out in the shape inShape picks.
func answerInShape[T, Alt any](s *Server, c *call, out T, alt func(T) Alt) {
	c.json(http.StatusOK, inShape(s, out, alt))
}
