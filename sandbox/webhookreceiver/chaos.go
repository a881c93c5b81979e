package webhookreceiver

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Chaos makes forwarding behave like real delivery does at its worst, so a
// partner's idempotency and ordering bugs show: each verified delivery is,
// with probability Rate for each mutation turned on, sent twice
// (Duplicate), held back and sent after the next one (Reorder), sent after
// a wait (Delay), or sent again later, after the next one (Replay). The
// dice come from Seed alone and are drawn in the order deliveries arrive,
// always the same number per delivery, so the same deliveries with the
// same seed are mutated the same way. With chaos the forwards go one at a
// time, in the order the mutations give.
type Chaos struct {
	Duplicate, Reorder, Replay bool
	Delay                      time.Duration // 0 = no delays
	Rate                       float64       // 0..1, per mutation and delivery
	Seed                       uint64
	// OnMutation, when set, is told of every mutation as it is decided.
	OnMutation func(Mutation)
}

// Mutation is one thing chaos did to a delivery.
type Mutation struct {
	Kind      string // duplicate, reorder, delay, replay
	Seq       int64  // the delivery's sequence number
	EventType string
	EventID   string
	What      string // in words: "sent twice", "held back until the next delivery", ...
}

// chaosHoldLimit is how long a held-back delivery (reorder) or a pending
// replay waits for a next delivery before it is sent anyway.
var chaosHoldLimit = 3 * time.Second

// ParseChaos reads --chaos: a comma-separated list of duplicate, reorder,
// replay and delay=DURATION.
func ParseChaos(spec string) (Chaos, error) {
	var c Chaos
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		name, value, hasValue := strings.Cut(part, "=")
		switch {
		case part == "":
			continue
		case name == "duplicate" && !hasValue:
			c.Duplicate = true
		case name == "reorder" && !hasValue:
			c.Reorder = true
		case name == "replay" && !hasValue:
			c.Replay = true
		case name == "delay":
			d, err := time.ParseDuration(value)
			if !hasValue || err != nil || d <= 0 {
				return Chaos{}, fmt.Errorf("chaos %q: write delay=DURATION, such as delay=2s", part)
			}
			c.Delay = d
		default:
			return Chaos{}, fmt.Errorf("chaos %q: the mutations are duplicate, reorder, delay=DURATION and replay", part)
		}
	}
	if !c.Duplicate && !c.Reorder && !c.Replay && c.Delay == 0 {
		return Chaos{}, fmt.Errorf("chaos %q names no mutation (duplicate, reorder, delay=DURATION, replay)", spec)
	}
	return c, nil
}

// String is the mutations as --chaos takes them.
func (c Chaos) String() string {
	var on []string
	if c.Duplicate {
		on = append(on, "duplicate")
	}
	if c.Reorder {
		on = append(on, "reorder")
	}
	if c.Delay > 0 {
		on = append(on, "delay="+c.Delay.String())
	}
	if c.Replay {
		on = append(on, "replay")
	}
	return strings.Join(on, ",")
}

// chaosPlan is what the dice decided for one delivery.
type chaosPlan struct{ duplicate, reorder, delay, replay bool }

// chaosStage decides the mutations and keeps what waits: a delivery held
// back and deliveries to replay. Only the one chaos worker uses it.
type chaosStage struct {
	cfg     Chaos
	dice    *rand.Rand
	held    *Delivery
	replays []Delivery
}

func newChaosStage(c Chaos) *chaosStage {
	return &chaosStage{cfg: c, dice: rand.New(rand.NewPCG(c.Seed, c.Seed^0x9e3779b97f4a7c15))}
}

// roll draws one die for every mutation turned on, in a fixed order, so
// the sequence depends on the seed and the deliveries' order alone.
func (st *chaosStage) roll() chaosPlan {
	var p chaosPlan
	hit := func(on bool) bool { return on && st.dice.Float64() < st.cfg.Rate }
	p.duplicate = hit(st.cfg.Duplicate)
	p.reorder = hit(st.cfg.Reorder)
	p.delay = hit(st.cfg.Delay > 0)
	p.replay = hit(st.cfg.Replay)
	return p
}

// chaosSend is one forward to make: the delivery, a wait before it, and
// the mutation it carries ("" for a plain forward).
type chaosSend struct {
	d        Delivery
	wait     time.Duration
	mutation string
}

// arrive decides what happens to d and returns the forwards to make now.
func (st *chaosStage) arrive(d Delivery) []chaosSend {
	p := st.roll()
	var sends []chaosSend
	if p.reorder && st.held == nil {
		st.note("reorder", d, "held back, sent after the next delivery")
		held := d
		st.held = &held
		return nil
	}
	first := chaosSend{d: d}
	if p.delay {
		first.wait, first.mutation = st.cfg.Delay, "delay"
		st.note("delay", d, "sent after "+st.cfg.Delay.String())
	}
	sends = append(sends, first)
	if p.duplicate {
		st.note("duplicate", d, "sent twice")
		sends = append(sends, chaosSend{d: d, mutation: "duplicate"})
	}
	sends = append(sends, st.release()...)
	if p.replay {
		st.note("replay", d, "sent again after the next delivery")
		st.replays = append(st.replays, d)
	}
	return sends
}

// release is what waited for a next delivery: the held one, then the
// replays.
func (st *chaosStage) release() []chaosSend {
	var sends []chaosSend
	if st.held != nil {
		sends = append(sends, chaosSend{d: *st.held, mutation: "reorder"})
		st.held = nil
	}
	for _, r := range st.replays {
		sends = append(sends, chaosSend{d: r, mutation: "replay"})
	}
	st.replays = nil
	return sends
}

// waiting reports whether anything waits for a next delivery.
func (st *chaosStage) waiting() bool { return st.held != nil || len(st.replays) > 0 }

func (st *chaosStage) note(kind string, d Delivery, what string) {
	if st.cfg.OnMutation != nil {
		st.cfg.OnMutation(Mutation{Kind: kind, Seq: d.Seq, EventType: d.EventType, EventID: d.EventID, What: what})
	}
}

// workChaos is the one forwarding goroutine under chaos: deliveries in
// order of arrival, mutated, forwarded one at a time.
func (f *forwarder) workChaos() {
	stage := newChaosStage(*f.chaos)
	send := func(sends []chaosSend) {
		for _, s := range sends {
			if s.wait > 0 {
				t := time.NewTimer(s.wait)
				select {
				case <-t.C:
				case <-f.ctx.Done():
					t.Stop()
				}
			}
			if f.ctx.Err() != nil {
				f.report(s.d, ForwardResult{URL: f.target, Error: "not forwarded: the listener stopped", Chaos: s.mutation})
				continue
			}
			res := f.send(f.ctx, s.d.Header, s.d.Body)
			res.Chaos = s.mutation
			f.report(s.d, res)
		}
	}
	for {
		var timeout <-chan time.Time
		if stage.waiting() {
			timeout = time.After(chaosHoldLimit)
		}
		select {
		case d, ok := <-f.queue:
			if !ok {
				send(stage.release())
				return
			}
			send(stage.arrive(d))
		case <-timeout:
			send(stage.release())
		}
	}
}
