package webhookreceiver

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"cardterm/apiclient"
)

// Options configures a Receiver.
type Options struct {
	// Key is the webhook's signing key (the apiKey shown once when the
	// configuration was created or its key rotated). It may be empty when
	// the keys come later through AddKey (an in-app listener started
	// before its webhook exists); until then every delivery is rejected.
	Key string
	// Tolerance is how far X-Timestamp may be from now; 0 = DefaultTolerance.
	// A signature accepted once is refused again for as long as its
	// timestamp stays within the tolerance (replay protection).
	Tolerance time.Duration
	// ForwardTo, when set, is the URL every verified delivery is re-posted
	// to, headers and body unchanged. Forwards run beside the answers,
	// through a bounded queue: the sender never waits on them.
	ForwardTo string
	// Routes forward verified deliveries by event type, each to its URL
	// through a queue of its own (routes.go); ForwardTo is the route *.
	Routes []Route
	// Chaos, with ForwardTo, mutates the forwards (duplicates, reorders,
	// delays, replays; chaos.go); nil forwards faithfully.
	Chaos *Chaos
	// ForwardClient sends the forwarded deliveries; nil = a client with a
	// 10 s timeout that does not follow redirects.
	ForwardClient *http.Client
	// EventTypes, when set, are the only event types a verified delivery
	// is published and forwarded for ("card.frozen", or "card.*" for a
	// category); others are answered 200 and counted in Ignored. Rejected
	// deliveries are published whatever type they claim.
	EventTypes []string
	// OnDelivery, when set, is called with each delivery before the sender
	// gets its answer (so a command printing them never misses one). It
	// may be called from several goroutines at once.
	OnDelivery func(Delivery)
	// OnForward, when set, is called with a forwarded delivery once its
	// forward is done (Forward set), from the forwarding goroutines.
	OnForward func(Delivery)
	// HistorySize and HistoryBytes bound the history; 0 = 200 deliveries
	// and 16 MiB.
	HistorySize, HistoryBytes int
	// Now is the receiver's clock; nil = time.Now.
	Now func() time.Time
}

// Delivery is one request the receiver got, verified or rejected. A
// rejected delivery keeps no body: its size, a short printable prefix and
// the headers that say why (rejectedHeaders).
type Delivery struct {
	Seq        int64       // 1, 2, ... in order of arrival
	ReceivedAt time.Time   // by the receiver's clock
	RemoteAddr string      // the sender's address
	Path       string      // the request path (and query)
	Header     http.Header // verified: every header as received; rejected: rejectedHeaders
	// Body is a verified delivery's raw body, kept once and shared by
	// every copy of the Delivery (never change it); nil when rejected.
	Body []byte
	// Size is how many bytes of body arrived (MaxBody+1 when more).
	Size int
	// BodyPrefix is the start of a rejected delivery's body, printable.
	BodyPrefix string
	// Read tolerantly from the body; empty when the body does not say
	// (for a rejected delivery, what it claims).
	EventType, EventID, UserID, OccurredAt string
	Verified                               bool
	Reason                                 Reason // why it was rejected; "" when verified
	Detail                                 string // the rejection in full; "" when verified
	Status                                 int    // what the receiver answered the sender
	// Forward is the forward's outcome, in the Delivery OnForward gets;
	// nil before (and when there is none).
	Forward *ForwardResult
}

// Receiver is an http.Handler for webhook deliveries. Create it with New.
type Receiver struct {
	opts   Options
	routes []*route // ForwardTo (as *) first, then Routes

	mu       sync.Mutex
	keys     []string // the signing keys a delivery may be signed with
	seq      int64
	seen     replayCache
	subs     map[int]chan Delivery
	nextSub  int
	history  history
	dropped  int64 // deliveries a full subscriber channel missed
	ignored  int64 // verified deliveries of a type not in EventTypes
	isClosed bool
}

// New checks opts and builds a Receiver.
func New(opts Options) (*Receiver, error) {
	if opts.Tolerance <= 0 {
		opts.Tolerance = DefaultTolerance
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	r := &Receiver{opts: opts, subs: map[int]chan Delivery{}, seen: newReplayCache(),
		history: history{maxCount: orDefault(opts.HistorySize, historySize), maxBytes: orDefault(opts.HistoryBytes, historyBytes)}}
	if opts.Key != "" {
		if err := r.AddKey(opts.Key); err != nil {
			return nil, err
		}
	}
	routes := opts.Routes
	if opts.ForwardTo != "" {
		routes = append([]Route{{Pattern: "*", URL: opts.ForwardTo}}, routes...)
	}
	for i, rt := range routes {
		var chaos *Chaos
		if i == 0 && opts.ForwardTo != "" {
			chaos = opts.Chaos
		}
		built, err := newRoute(rt, opts, chaos)
		if err != nil {
			r.Close()
			return nil, err
		}
		r.routes = append(r.routes, built)
	}
	return r, nil
}

func orDefault(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// ServeHTTP checks one delivery, answers 200 when verified and 401 when
// rejected, queues the forward of a verified one, and publishes the
// Delivery.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeAnswer(w, http.StatusMethodNotAllowed, map[string]any{"error": "webhook deliveries are POSTed"})
		return
	}
	now := r.opts.Now()
	d := Delivery{ReceivedAt: now, RemoteAddr: req.RemoteAddr, Path: clipField(req.URL.RequestURI())}
	buf, readErr := readBody(req)
	defer releaseBody(buf)
	var err error
	body := buf.Bytes()
	d.Size = len(body)
	switch {
	case req.ContentLength > MaxBody || len(body) > MaxBody:
		d.Size = MaxBody + 1
		err = refuse(ReasonMalformed, "the body is larger than %d bytes", MaxBody)
		w.Header().Set("Connection", "close") // the rest is not read
	case readErr != nil && isTimeout(readErr):
		err = refuse(ReasonMalformed, "the body did not arrive in time")
		w.Header().Set("Connection", "close")
	case readErr != nil:
		err = refuse(ReasonMalformed, "the body could not be read")
	default:
		err = r.check(req.Header, body, now)
	}
	readEvent(&d, body)
	if err != nil {
		d.Reason, d.Detail = ReasonOf(err), err.Error()
		d.Status = http.StatusUnauthorized
		if isTimeout(readErr) {
			d.Status = http.StatusRequestTimeout
		}
		d.BodyPrefix = bodyPrefix(body)
		d.Header = keptHeaders(req.Header, false)
		r.publish(d)
		writeAnswer(w, d.Status, map[string]any{"error": d.Detail, "reason": d.Reason})
		return
	}
	d.Verified, d.Status = true, http.StatusOK
	d.Body = make([]byte, len(body)) // the one copy kept, at its size
	copy(d.Body, body)
	d.Header = keptHeaders(req.Header, true)
	if r.wanted(d.EventType) {
		d = r.publish(d)
		for _, rt := range r.routes {
			rt.enqueue(d)
		}
	} else {
		r.mu.Lock()
		r.ignored++
		r.mu.Unlock()
	}
	writeAnswer(w, d.Status, map[string]any{"received": true})
}

// isTimeout reports a body read cut off by its deadline.
func isTimeout(err error) bool {
	var timeout interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &timeout) && timeout.Timeout())
}

// wanted reports whether a verified delivery of eventType is published.
func (r *Receiver) wanted(eventType string) bool {
	if len(r.opts.EventTypes) == 0 {
		return true
	}
	for _, want := range r.opts.EventTypes {
		if TypeMatches(want, eventType) {
			return true
		}
	}
	return false
}

// check verifies the headers and body, then refuses a signature already
// accepted within the window and remembers this one.
func (r *Receiver) check(h http.Header, body []byte, now time.Time) error {
	ts, sig := h.Get(apiclient.WebhookTimestampHeader), h.Get(apiclient.WebhookSignatureHeader)
	if len(h.Values(apiclient.WebhookSignatureHeader)) > 1 || len(h.Values(apiclient.WebhookTimestampHeader)) > 1 {
		return refuse(ReasonMalformed, "a signature header appears more than once")
	}
	r.mu.Lock()
	keys := r.keys // AddKey and RemoveKey replace the slice, never change it
	r.mu.Unlock()
	if err := verifyAny(keys, ts, sig, body, now, r.opts.Tolerance); err != nil {
		return err
	}
	signedAt, _ := parseUnix(ts)
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.seen.add(strings.ToLower(strings.TrimSpace(sig)), signedAt.Add(r.opts.Tolerance), now) {
		return refuse(ReasonReplay, "a delivery with this signature was already accepted")
	}
	return nil
}

// verifyAny verifies against each key in turn: the delivery is good when
// one key verifies it; otherwise the error says why (a timestamp or header
// problem before "no key matches").
func verifyAny(keys []string, ts, sig string, body []byte, now time.Time, tolerance time.Duration) error {
	if len(keys) == 0 {
		return refuse(ReasonSignature, "no signing key yet: this receiver was given none")
	}
	var err error
	for _, key := range keys {
		err = Verify(key, ts, sig, body, now, tolerance)
		if err == nil || ReasonOf(err) != ReasonSignature {
			return err
		}
	}
	return err
}

// AddKey adds a signing key deliveries may be signed with (the full key a
// webhook's create or rotate-key answer shows once). Several webhooks may
// point at one receiver, each with its own key.
func (r *Receiver) AddKey(key string) error {
	key = strings.TrimSpace(key)
	if key == "" || apiclient.IsMaskedKey(key) {
		return errors.New("webhookreceiver: a signing key is required (a masked key cannot verify)")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !slices.Contains(r.keys, key) {
		r.keys = append(slices.Clip(r.keys), key)
	}
	return nil
}

// RemoveKey stops accepting deliveries signed with key (after a rotation
// or when the webhook is deleted).
func (r *Receiver) RemoveKey(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key = strings.TrimSpace(key)
	r.keys = slices.DeleteFunc(slices.Clone(r.keys), func(k string) bool { return k == key })
}
