package webhookreceiver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"
)

// forwardTimeout bounds one forwarded delivery.
const forwardTimeout = 10 * time.Second

// The forward queue: verified deliveries wait here for one of the
// forwarding goroutines, so a slow or dead target never delays the
// sender's answer. When the queue is full a delivery is not forwarded
// (and says so) rather than pile up in memory.
const (
	forwardQueueSize = 64
	forwardWorkers   = 4
)

// ForwardResult is what the partner's server answered a forwarded delivery.
type ForwardResult struct {
	URL string
	// Pattern is the route's event-type pattern (* for ForwardTo).
	Pattern  string
	Status   int           // the server's HTTP status; 0 when none came
	Duration time.Duration // from sending to the answer's headers
	Error    string        // why no status came
	// Chaos is the mutation this forward carries (duplicate, reorder,
	// delay, replay), "" for a plain one (chaos.go).
	Chaos string
}

// hopHeaders are the connection-level headers a forward must not copy
// (RFC 9110, section 7.6.1); every other header goes through unchanged.
var hopHeaders = []string{"Connection", "Keep-Alive", "Proxy-Connection", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// forwarder re-posts verified deliveries to the partner's server from a
// few goroutines fed by a bounded queue.
type forwarder struct {
	target string
	client *http.Client
	done   func(Delivery) // OnForward; may be nil
	chaos  *Chaos         // nil: faithful forwarding

	queue   chan Delivery
	ctx     context.Context // cancelled by close: forwards under way stop
	cancel  context.CancelFunc
	workers sync.WaitGroup
	mu      sync.Mutex
	closed  bool
}

func newForwarder(target string, client *http.Client, done func(Delivery), chaos *Chaos) (*forwarder, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("webhookreceiver: forward-to %q is not an http(s) URL", target)
	}
	if client == nil {
		// No compression: the transport would otherwise add an
		// Accept-Encoding header the sender did not send.
		transport := http.DefaultTransport.(*http.Transport).Clone()
		transport.DisableCompression = true
		client = &http.Client{
			Transport:     transport,
			Timeout:       forwardTimeout,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	f := &forwarder{target: target, client: client, done: done, chaos: chaos, queue: make(chan Delivery, forwardQueueSize)}
	f.ctx, f.cancel = context.WithCancel(context.Background())
	if chaos != nil {
		f.workers.Go(f.workChaos) // one at a time: the order is the mutations'
		return f, nil
	}
	for range forwardWorkers {
		f.workers.Go(f.work)
	}
	return f, nil
}

// enqueue hands d to the forwarding goroutines; a full queue (or a closed
// forwarder) reports it not forwarded at once.
func (f *forwarder) enqueue(d Delivery) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		select {
		case f.queue <- d:
			return
		default:
		}
	}
	why := fmt.Sprintf("not forwarded: %d forwards already waiting", forwardQueueSize)
	if f.closed {
		why = "not forwarded: the listener stopped"
	}
	f.report(d, ForwardResult{URL: f.target, Error: why})
}

func (f *forwarder) work() {
	for d := range f.queue {
		if f.ctx.Err() != nil {
			f.report(d, ForwardResult{URL: f.target, Error: "not forwarded: the listener stopped"})
			continue
		}
		f.report(d, f.send(f.ctx, d.Header, d.Body))
	}
}

func (f *forwarder) report(d Delivery, res ForwardResult) {
	if f.done != nil {
		d.Forward = &res
		f.done(d)
	}
}

// close stops the forwards under way, reports the queued ones as not
// forwarded, and waits for the goroutines to end.
func (f *forwarder) close() {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	f.closed = true
	f.cancel()
	close(f.queue)
	f.mu.Unlock()
	f.workers.Wait()
}

// send posts body with header to the target and reports the answer.
func (f *forwarder) send(ctx context.Context, header http.Header, body []byte) ForwardResult {
	res := ForwardResult{URL: f.target}
	ctx, cancel := context.WithTimeout(ctx, forwardTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.target, bytes.NewReader(body))
	if err != nil {
		res.Error = err.Error()
		return res
	}
	req.Header = header.Clone()
	for _, h := range hopHeaders {
		req.Header.Del(h)
	}
	if _, ok := header["User-Agent"]; !ok {
		req.Header["User-Agent"] = []string{""} // send none rather than Go's default
	}
	req.Header.Del("Content-Length") // set from the body
	start := time.Now()
	resp, err := f.client.Do(req)
	res.Duration = time.Since(start)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		res.Error = err.Error()
		return res
	}
	resp.Body.Close()
	res.Status = resp.StatusCode
	return res
}
