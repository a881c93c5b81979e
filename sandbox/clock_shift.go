package sandbox

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The sandbox clock (SANDBOX-ONLY): a partner moves the sandbox's time to
// see what hours, days or months do to their integration without waiting.
// The shift is added to the injected Clock (the wall clock by default), so
// time keeps running from wherever it was put; every expiry reads the
// shifted time (access and refresh tokens, OAuth codes, hosted PIN links,
// unpaid orders, delegation tokens) and a move expires pending
// authorizations into reversals (authorization_expiry.go).
//
//	GET  /sandbox/clock
//	  -> 200 {now, wallClock, shift, shiftSeconds, shifted}
//	POST /sandbox/clock {advance: "7h" | "31m" | "185d"} | {set: RFC 3339} | {reset: true}
//	  -> 200 the same, plus reversed: [authorization ids expired by the move]
//
// The clock is the whole sandbox's (every tenant's), like the wall clock it
// stands in for. With a data directory the shift survives a restart.

// ShiftHeader is on every answer while the sandbox's time differs from
// the wall clock: the sandbox's time (RFC 3339), so an app or listen can
// say which time the gateway lives in.
const ShiftHeader = "X-Sandbox-Time"

// ClockState is what GET and POST /sandbox/clock answer.
type ClockState struct {
	Now          time.Time `json:"now"`
	WallClock    time.Time `json:"wallClock"`
	Shift        string    `json:"shift"`
	ShiftSeconds int64     `json:"shiftSeconds"`
	Shifted      bool      `json:"shifted"`
	// Reversed are the pending authorizations a move expired.
	Reversed []string `json:"reversed,omitempty"`
}

// Shift is how far the sandbox's time is from its injected clock.
func (s *Server) Shift() time.Duration { return time.Duration(s.shift.Load()) }

// clockState is the clock as answered.
func (s *Server) clockState() ClockState {
	shift := s.Shift()
	return ClockState{Now: s.now().UTC().Truncate(time.Second), WallClock: s.clock.Now().UTC().Truncate(time.Second),
		Shift: shift.String(), ShiftSeconds: int64(shift / time.Second), Shifted: shift != 0}
}

// announceShift puts ShiftHeader on an answer while the time is shifted.
func (s *Server) announceShift(w http.ResponseWriter) {
	if s.Shift() != 0 {
		w.Header().Set(ShiftHeader, s.now().UTC().Format(time.RFC3339))
	}
}

// clockRoutes registers GET and POST /sandbox/clock (called from routes).
func (s *Server) clockRoutes() {
	spec := routeSpec{fam: familyMessage, ident: identClientKey, secret: true}
	s.handle("GET /sandbox/clock", spec, func(c *call) { c.json(http.StatusOK, s.clockState()) })
	s.handle("POST /sandbox/clock", spec, s.clockRoute)
}

// clockMove is the body of POST /sandbox/clock: exactly one member.
type clockMove struct {
	Advance string `json:"advance"`
	Set     string `json:"set"`
	Reset   bool   `json:"reset"`
}

// clockRoute: POST /sandbox/clock.
func (s *Server) clockRoute(c *call) {
	var in clockMove
	if !c.decode(&in) {
		return
	}
	shift, err := s.shiftFor(in)
	if err != nil {
		c.fail(http.StatusBadRequest, err.Error())
		return
	}
	c.json(http.StatusOK, s.SetShift(shift))
}

// SetShift puts the sandbox's time shift from its clock, keeps it in the
// data directory, and expires what the new time expires.
func (s *Server) SetShift(shift time.Duration) ClockState {
	s.mu.Lock()
	s.shift.Store(int64(shift))
	s.keepShiftLocked()
	reversed := s.expireAuthorizationsLocked()
	s.mu.Unlock()
	s.commitLogged()
	out := s.clockState()
	out.Reversed = reversed
	return out
}

// shiftFor is the shift a move asks for.
func (s *Server) shiftFor(in clockMove) (time.Duration, error) {
	given := 0
	for _, set := range []bool{in.Advance != "", in.Set != "", in.Reset} {
		if set {
			given++
		}
	}
	if given != 1 {
		return 0, errors.New("give exactly one of advance (such as 7h, 31m or 185d), set (an RFC 3339 time) or reset (true)")
	}
	switch {
	case in.Reset:
		return 0, nil
	case in.Set != "":
		at, err := time.Parse(time.RFC3339, strings.TrimSpace(in.Set))
		if err != nil {
			return 0, fmt.Errorf("set %q must be an RFC 3339 time such as 2027-01-31T09:00:00Z", in.Set)
		}
		return at.Sub(s.clock.Now()).Round(time.Second), nil
	}
	step, err := ParseClockStep(in.Advance)
	if err != nil {
		return 0, err
	}
	return s.Shift() + step, nil
}

// maxClockStep bounds one advance (ten years), so a typo cannot overflow.
const maxClockStep = 10 * 366 * 24 * time.Hour

// ParseClockStep reads a forward step of time: a Go duration (7h, 31m,
// 1h30m) or whole days (185d), with an optional leading +.
func ParseClockStep(text string) (time.Duration, error) {
	t := strings.TrimPrefix(strings.TrimSpace(text), "+")
	var step time.Duration
	var err error
	if days, ok := strings.CutSuffix(t, "d"); ok {
		var n int
		n, err = strconv.Atoi(days)
		step = time.Duration(n) * 24 * time.Hour
	} else {
		step, err = time.ParseDuration(t)
	}
	switch {
	case err != nil || t == "":
		return 0, fmt.Errorf("advance %q must be a step forward such as 7h, 31m, 1h30m or 185d", text)
	case step <= 0:
		return 0, fmt.Errorf("advance %q must move forward; use set (a time) or reset to go back", text)
	case step > maxClockStep:
		return 0, fmt.Errorf("advance %q is more than ten years", text)
	}
	return step, nil
}

// clockRecordKey is where a data directory keeps the shift: a session
// record of its own kind (the store reads only the record kinds it
// knows, and the shift lives as long as the sign-ins it expires).
const clockRecordKey = "shift"

// sessionClock is the kind of the session record holding the shift.
const sessionClock = "clock"

// keepShiftLocked records the shift (none: the record goes). Call with
// s.mu held.
func (s *Server) keepShiftLocked() {
	if s.persist.store == nil {
		return
	}
	if s.Shift() == 0 {
		s.keepLocked(sessionKey(sessionClock, clockRecordKey), nil)
		return
	}
	s.keepLocked(sessionKey(sessionClock, clockRecordKey),
		fixtureSession{Kind: sessionClock, Key: clockRecordKey, Pair: s.Shift().String()})
}

// applyShift puts a kept shift back.
func (s *Server) applyShift(path string, in fixtureSession) error {
	shift, err := time.ParseDuration(in.Pair)
	if in.Key != clockRecordKey || err != nil {
		return fixtureProblem(path, "a clock record must be key %q with the shift as a duration", clockRecordKey)
	}
	s.shift.Store(int64(shift))
	return nil
}
