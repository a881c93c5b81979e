package casefile

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Answer is one answer the gateway gave: the request that asked for it
// and the SHA-256 of its body as it came over the wire. The body itself
// is not kept.
type Answer struct {
	Request Request
	At      time.Time
	SHA256  string
}

// Recorder is an http.RoundTripper that notes, for every answer, the
// request and the hash of the body, so that evidence copied from a
// screen names the answer it was drawn from. It keeps the latest answer
// per method and path (at most maxAnswers paths).
type Recorder struct {
	base *http.Client
	next http.RoundTripper
	via  string
	now  func() time.Time

	mu      sync.Mutex
	answers []Answer // oldest first
}

// maxAnswers bounds what a recorder keeps.
const maxAnswers = 256

// maxHashed is the largest body a recorder reads to hash; a longer one
// is passed on as it is and noted without a hash.
const maxHashed = 16 << 20

// NewRecorder records what base sends (nil: a client of
// http.DefaultTransport); via names the credentials ("client key",
// "approved session").
func NewRecorder(base *http.Client, via string, now func() time.Time) *Recorder {
	r := &Recorder{via: via, now: now, base: &http.Client{}}
	if base != nil {
		*r.base = *base
	}
	r.next = r.base.Transport
	if r.next == nil {
		r.next = http.DefaultTransport
	}
	if r.now == nil {
		r.now = time.Now
	}
	return r
}

// Client is base sending through the recorder.
func (r *Recorder) Client() *http.Client {
	c := *r.base
	c.Transport = r
	return &c
}

// RoundTrip implements http.RoundTripper.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.next.RoundTrip(req)
	if err != nil || resp == nil || resp.Body == nil {
		return resp, err
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxHashed+1))
	if rerr != nil {
		resp.Body.Close()
		return nil, rerr
	}
	sum := ""
	if len(body) <= maxHashed {
		h := sha256.Sum256(body)
		sum = hex.EncodeToString(h[:])
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
	} else {
		resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), resp.Body), resp.Body}
	}
	region := "EU"
	if strings.EqualFold(req.Header.Get("x-us-env"), "true") || strings.EqualFold(req.URL.Query().Get("x-us-env"), "true") {
		region = "US"
	}
	path := req.URL.EscapedPath()
	if req.URL.RawQuery != "" {
		path += "?" + req.URL.RawQuery
	}
	answer := Answer{Request: Request{Method: req.Method, Path: path, Region: region, Status: resp.StatusCode, Via: r.via}, At: r.now().UTC(), SHA256: sum}
	r.keep(answer)
	if c, ok := req.Context().Value(captureKey{}).(*Captured); ok {
		c.add(answer)
	}
	return resp, nil
}

func (r *Recorder) keep(a Answer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, old := range r.answers {
		if old.Request.Method == a.Request.Method && old.Request.Path == a.Request.Path {
			r.answers = append(r.answers[:i], r.answers[i+1:]...)
			break
		}
	}
	r.answers = append(r.answers, a)
	if len(r.answers) > maxAnswers {
		r.answers = r.answers[len(r.answers)-maxAnswers:]
	}
}

// Latest is the newest GET answer whose path starts with one of prefixes
// (any GET when none is given).
func (r *Recorder) Latest(prefixes ...string) (Answer, bool) {
	if r == nil {
		return Answer{}, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.answers) - 1; i >= 0; i-- {
		a := r.answers[i]
		if a.Request.Method != http.MethodGet {
			continue
		}
		if len(prefixes) == 0 {
			return a, true
		}
		for _, p := range prefixes {
			if strings.HasPrefix(a.Request.Path, p) {
				return a, true
			}
		}
	}
	return Answer{}, false
}

// captureKey marks a context whose requests' answers are captured.
type captureKey struct{}

// Captured holds the answers of the requests sent under one context
// (Capture), so that a caller cites the very answer that held a record,
// not the recorder's latest answer for a path (another page of the same
// list, or a later read).
type Captured struct {
	mu      sync.Mutex
	answers []Answer
}

// Capture is ctx with a place that every recorder through which a request
// under it is sent notes the answer in.
func Capture(ctx context.Context) (context.Context, *Captured) {
	c := &Captured{}
	return context.WithValue(ctx, captureKey{}, c), c
}

func (c *Captured) add(a Answer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.answers = append(c.answers, a)
}

// Last is the last answer captured: the one a call that retried used.
func (c *Captured) Last() (Answer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.answers) == 0 {
		return Answer{}, false
	}
	return c.answers[len(c.answers)-1], true
}
