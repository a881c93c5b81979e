package webhookreceiver

import (
	"encoding/json"
	"net/http"
	"sync"
)

// publish numbers d, keeps it in the history and hands it to the
// subscribers; a subscriber whose channel is full misses it (counted in
// Dropped) rather than stall the sender.
func (r *Receiver) publish(d Delivery) Delivery {
	r.mu.Lock()
	r.seq++
	d.Seq = r.seq
	r.history.add(d)
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

// History returns the most recent deliveries (at most 200, and 16 MiB of
// bodies and headers, unless Options say otherwise), newest first.
func (r *Receiver) History() []Delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.history.newestFirst()
}

// Latest is the sequence number of the last delivery received (0 for
// none): a subscriber that must not show what came before it subscribed
// skips deliveries up to it.
func (r *Receiver) Latest() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.seq
}

// Dropped is how many deliveries full subscriber channels missed.
func (r *Receiver) Dropped() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// Ignored is how many verified deliveries were of a type EventTypes
// leaves out.
func (r *Receiver) Ignored() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.ignored
}

// Close ends every subscription and the forwards still queued or under
// way (each reported as not forwarded); later deliveries are still
// answered and kept in the history.
func (r *Receiver) Close() {
	r.mu.Lock()
	if r.isClosed {
		r.mu.Unlock()
		return
	}
	r.isClosed = true
	for id, ch := range r.subs {
		delete(r.subs, id)
		close(ch)
	}
	r.mu.Unlock()
	for _, rt := range r.routes {
		rt.forward.close()
	}
}

func writeAnswer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
