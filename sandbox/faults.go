package sandbox

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

// randFloat draws the error-rate dice.
func randFloat() float64 { return rand.Float64() }

// malformedWriter buffers an answer so a 2xx body can be cut short and made
// invalid JSON (Faults.Malformed); other answers pass through unchanged.
type malformedWriter struct {
	http.ResponseWriter
	status      int
	wroteHeader bool
	buf         bytes.Buffer
}

func (m *malformedWriter) WriteHeader(status int) {
	if !m.wroteHeader {
		m.status, m.wroteHeader = status, true
	}
}

func (m *malformedWriter) Write(b []byte) (int, error) {
	m.wroteHeader = true
	return m.buf.Write(b)
}

// finish sends the (possibly mangled) answer.
func (m *malformedWriter) finish() {
	body := m.buf.Bytes()
	if m.status >= 200 && m.status < 300 {
		// Half the body, never valid JSON: "{" alone or a cut object/array.
		cut := len(body) / 2
		if cut < 1 {
			body = []byte("{")
		} else {
			body = append(append([]byte(nil), body[:cut]...), "\x00<truncated"...)
		}
		m.ResponseWriter.Header().Set("Content-Length", strconv.Itoa(len(body)))
	}
	m.ResponseWriter.WriteHeader(m.status)
	_, _ = m.ResponseWriter.Write(body)
}

// limiter is a set of sliding-window request logs, keyed by what is limited
// (an access token, a client key). Guarded by Server.mu.
type limiter struct {
	hits map[string][]time.Time
}

// rule is one limit: at most max requests per window for key.
type rule struct {
	key    string
	max    int
	window time.Duration
}

// allow checks every rule at now; when all pass it records the request and
// returns 0, otherwise it records nothing and returns how long until the
// tightest rule frees a slot.
func (l *limiter) allow(now time.Time, rules ...rule) time.Duration {
	var wait time.Duration
	for _, ru := range rules {
		h := l.hits[ru.key]
		i := 0
		for i < len(h) && !h[i].After(now.Add(-ru.window)) {
			i++
		}
		h = h[i:]
		l.hits[ru.key] = h
		if len(h) >= ru.max {
			if d := h[len(h)-ru.max].Add(ru.window).Sub(now); d > wait {
				wait = d
			}
		}
	}
	if wait > 0 {
		return wait
	}
	for _, ru := range rules {
		l.hits[ru.key] = append(l.hits[ru.key], now)
	}
	return 0
}

// retryAfterSeconds turns a wait into a Retry-After value (whole seconds, at least 1).
func retryAfterSeconds(d time.Duration) string {
	s := int((d + time.Second - 1) / time.Second)
	if s < 1 {
		s = 1
	}
	return strconv.Itoa(s)
}
