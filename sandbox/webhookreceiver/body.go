package webhookreceiver

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"cardterm/apiclient"
)

// MaxBody bounds a delivery's body; a larger one is rejected as malformed.
const MaxBody = 1 << 20

// prefixSize is how much of a rejected delivery's body is kept, to say
// what it was: its size and these first bytes, never the body.
const prefixSize = 64

// bodyBuffers are the buffers bodies are read into while they are checked.
// A rejected body is dropped and its buffer reused; a verified one is
// copied out once, at its exact size, so a flood of unsigned deliveries
// costs the buffers of the requests in flight and nothing more.
var bodyBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// readBody reads up to MaxBody+1 bytes of body into a pooled buffer; the
// caller returns it with releaseBody. A Content-Length over MaxBody is
// not read at all.
func readBody(req *http.Request) (*bytes.Buffer, error) {
	buf := bodyBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	if req.ContentLength > MaxBody {
		return buf, nil
	}
	if req.ContentLength > 0 {
		buf.Grow(int(req.ContentLength) + 1)
	}
	_, err := buf.ReadFrom(io.LimitReader(req.Body, MaxBody+1))
	return buf, err
}

// releaseBody returns buf to the pool, unless a huge chunked body made it
// larger than a delivery may be.
func releaseBody(buf *bytes.Buffer) {
	if buf.Cap() <= 2*MaxBody+bytes.MinRead {
		bodyBuffers.Put(buf)
	}
}

// bodyPrefix is the start of a body as a short line of printable text:
// invalid UTF-8, controls, bidi and other invisible characters become
// '.', and a longer body ends in "…". It is what a rejected delivery keeps.
func bodyPrefix(body []byte) string {
	cut := body[:min(len(body), prefixSize)]
	var b strings.Builder
	for i := 0; i < len(cut); {
		r, size := utf8.DecodeRune(cut[i:])
		if !utf8.FullRune(cut[i:]) && len(body) > len(cut) {
			break // a character cut by the limit, not a bad one
		}
		if r == utf8.RuneError || !unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r) {
			b.WriteByte('.')
		} else {
			b.WriteRune(r)
		}
		i += size
	}
	if len(body) > len(cut) {
		b.WriteString("…")
	}
	return b.String()
}

// eventFields are the members of a delivery's body a list row shows. Only
// these are decoded (no copy of the event object).
type eventFields struct {
	EventType  string `json:"event_type"`
	EventID    string `json:"event_id"`
	UserID     string `json:"user_id"`
	OccurredAt string `json:"occurred_at"`
}

// readEvent fills the event fields from body, tolerantly: a body that is
// not the expected JSON leaves them empty. For a rejected delivery they
// are what the sender claims, unverified.
func readEvent(d *Delivery, body []byte) {
	var ev eventFields
	if json.Unmarshal(body, &ev) != nil {
		return
	}
	d.EventType, d.EventID, d.UserID, d.OccurredAt = clipField(ev.EventType), clipField(ev.EventID), clipField(ev.UserID), clipField(ev.OccurredAt)
}

// clipField bounds a field a sender chose (a 1 MiB event_type must not
// be kept with a rejected delivery whose body is not).
func clipField(s string) string {
	const most = 200
	if len(s) <= most {
		return s
	}
	for i := most; i > most-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			return s[:i] + "…"
		}
	}
	return s[:most] + "…"
}

// rejectedHeaders are the headers a rejected delivery keeps (each value
// clipped): what says why it was rejected and who sent it.
var rejectedHeaders = []string{apiclient.WebhookTimestampHeader, apiclient.WebhookSignatureHeader,
	"Content-Type", "Content-Length", "User-Agent"}

// keptHeaders is the part of h a delivery keeps: all of it when verified,
// else rejectedHeaders, each value clipped.
func keptHeaders(h http.Header, verified bool) http.Header {
	if verified {
		return h.Clone()
	}
	kept := make(http.Header, len(rejectedHeaders))
	for _, name := range rejectedHeaders {
		values := h.Values(name)
		for i, v := range values[:min(len(values), 2)] {
			if i == 0 {
				kept[name] = make([]string, 0, min(len(values), 2))
			}
			kept[name] = append(kept[name], clipField(v))
		}
	}
	return kept
}

// headerBytes is about what h costs in memory.
func headerBytes(h http.Header) int {
	n := 0
	for k, vs := range h {
		n += len(k) + 32
		for _, v := range vs {
			n += len(v) + 16
		}
	}
	return n
}
