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

// answerInShape answers 200 with out as the interface shapes it or, when
// the sandbox runs with AltShapes, with alt(out): the one place a handler
// picks which shape its record goes out in.
func answerInShape[T, Alt any](s *Server, c *call, out T, alt func(T) Alt) {
	if s.opts.AltShapes {
		c.json(http.StatusOK, alt(out))
		return
	}
	c.json(http.StatusOK, out)
}
