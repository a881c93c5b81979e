package webhookreceiver

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"cardterm/apiclient"
)

// MaxBody bounds a delivery's body; a larger one is rejected as malformed.
const MaxBody = 1 << 20

// historySize is how many recent deliveries History keeps.
const historySize = 200

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
	// to, headers and body unchanged.
	ForwardTo string
	// ForwardClient sends the forwarded deliveries; nil = a client with a
	// 10 s timeout that does not follow redirects.
	ForwardClient *http.Client
	// OnDelivery, when set, is called with each delivery before the sender
	// gets its answer (so a command printing them never misses one). It
	// may be called from several goroutines at once.
	OnDelivery func(Delivery)
	// Now is the receiver's clock; nil = time.Now.
	Now func() time.Time
}

// Delivery is one request the receiver got, verified or rejected.
type Delivery struct {
	Seq        int64       // 1, 2, ... in order of arrival
	ReceivedAt time.Time   // by the receiver's clock
	RemoteAddr string      // the sender's address
	Path       string      // the request path (and query)
	Header     http.Header // every header as received
	Body       []byte      // the raw body as received
	// Read tolerantly from the body; empty when the body does not say.
	EventType, EventID, UserID, OccurredAt string
	Verified                               bool
	Reason                                 Reason // why it was rejected; "" when verified
	Detail                                 string // the rejection in full; "" when verified
	Status                                 int    // what the receiver answered the sender
	Forward                                *ForwardResult
}

// Receiver is an http.Handler for webhook deliveries. Create it with New.
type Receiver struct {
	opts    Options
	forward *forwarder

	mu       sync.Mutex
	keys     []string // the signing keys a delivery may be signed with
	seq      int64
	seen     replayCache
	subs     map[int]chan Delivery
	nextSub  int
	history  []Delivery // a ring of the latest historySize deliveries
	oldest   int        // index of the oldest in history once it is full
	dropped  int64      // deliveries a full subscriber channel missed
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
	r := &Receiver{opts: opts, subs: map[int]chan Delivery{}, seen: newReplayCache()}
	if opts.Key != "" {
		if err := r.AddKey(opts.Key); err != nil {
			return nil, err
		}
	}
	if opts.ForwardTo != "" {
		f, err := newForwarder(opts.ForwardTo, opts.ForwardClient)
		if err != nil {
			return nil, err
		}
		r.forward = f
	}
	return r, nil
}

// ServeHTTP checks one delivery, answers 200 when verified and 401 when
// rejected, forwards a verified one, and publishes the Delivery.
func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	if req.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeAnswer(w, http.StatusMethodNotAllowed, map[string]any{"error": "webhook deliveries are POSTed"})
		return
	}
	now := r.opts.Now()
	d := Delivery{ReceivedAt: now, RemoteAddr: req.RemoteAddr, Path: req.URL.RequestURI(), Header: req.Header.Clone()}
	body, err := io.ReadAll(io.LimitReader(req.Body, MaxBody+1))
	d.Body = body
	switch {
	case err != nil:
		err = refuse(ReasonMalformed, "the body could not be read")
	case len(body) > MaxBody:
		d.Body = body[:MaxBody]
		err = refuse(ReasonMalformed, "the body is larger than %d bytes", MaxBody)
	default:
		err = r.check(req.Header, body, now)
	}
	readEvent(&d)
	if err != nil {
		d.Reason, d.Detail = ReasonOf(err), err.Error()
		d.Status = http.StatusUnauthorized
	} else {
		d.Verified, d.Status = true, http.StatusOK
		if r.forward != nil {
			res := r.forward.send(req.Context(), req.Header, body)
			d.Forward = &res
		}
	}
	d = r.publish(d)
	if d.Verified {
		writeAnswer(w, d.Status, map[string]any{"received": true})
		return
	}
	writeAnswer(w, d.Status, map[string]any{"error": d.Detail, "reason": d.Reason})
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

// publish numbers d, keeps it in the history and hands it to the
// subscribers; a subscriber whose channel is full misses it (counted in
// Dropped) rather than stall the sender.
func (r *Receiver) publish(d Delivery) Delivery {
	r.mu.Lock()
	r.seq++
	d.Seq = r.seq
	if len(r.history) < historySize {
		r.history = append(r.history, d)
	} else {
		r.history[r.oldest] = d
		r.oldest = (r.oldest + 1) % historySize
	}
	if !r.isClosed {
		for _, ch := range r.subs {
			select {
			case ch <- d:
			default:
				r.dropped++
			}
		}
	}
	r.mu.Unlock()
	if r.opts.OnDelivery != nil {
		r.opts.OnDelivery(d)
	}
	return d
}

// Subscribe returns a channel that receives every later delivery, and a
// function that ends the subscription (and closes the channel). buffer is
// how many deliveries may wait unread before new ones are dropped for it.
func (r *Receiver) Subscribe(buffer int) (<-chan Delivery, func()) {
	if buffer < 1 {
		buffer = 1
	}
	ch := make(chan Delivery, buffer)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.isClosed {
		close(ch)
		return ch, func() {}
	}
	id := r.nextSub
	r.nextSub++
	r.subs[id] = ch
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			r.mu.Lock()
			if c, ok := r.subs[id]; ok {
				delete(r.subs, id)
				close(c)
			}
			r.mu.Unlock()
		})
	}
}

// History returns the most recent deliveries (at most 200), newest first.
func (r *Receiver) History() []Delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.history)
	out := make([]Delivery, n)
	for i := range n {
		out[i] = r.history[(r.oldest+n-1-i)%n]
	}
	return out
}

// Dropped is how many deliveries full subscriber channels missed.
func (r *Receiver) Dropped() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// Close ends every subscription; later deliveries are still answered and
// kept in the history.
func (r *Receiver) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.isClosed {
		return
	}
	r.isClosed = true
	for id, ch := range r.subs {
		delete(r.subs, id)
		close(ch)
	}
}

// readEvent fills the event fields from the body, tolerantly: a body that
// is not the expected JSON leaves them empty.
func readEvent(d *Delivery) {
	var ev apiclient.WebhookEvent
	if json.Unmarshal(d.Body, &ev) != nil {
		return
	}
	d.EventType, d.EventID, d.UserID, d.OccurredAt = ev.EventType, ev.EventID, ev.UserID, ev.OccurredAt
}

func writeAnswer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
