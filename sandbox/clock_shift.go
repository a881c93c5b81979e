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
		return s.shiftToTime(in.Set)
	}
	step, err := ParseClockStep(in.Advance)
	if err != nil {
		return 0, err
	}
	// Compared as a difference, so an unusual kept shift cannot overflow.
	if s.Shift() > maxClockShift-step {
		return 0, fmt.Errorf("advance %q is too large: the sandbox's time stays within %s of the wall clock, and it is already %s ahead; reset or set a time first",
			in.Advance, maxClockShiftText, clockDays(s.Shift()))
	}
	return s.Shift() + step, nil
}

// shiftToTime is the shift that puts the sandbox's time at text (RFC 3339).
func (s *Server) shiftToTime(text string) (time.Duration, error) {
	at, err := time.Parse(time.RFC3339, strings.TrimSpace(text))
	if err != nil {
		return 0, fmt.Errorf("set %q must be an RFC 3339 time such as 2027-01-31T09:00:00Z", text)
	}
	wall := s.clock.Now()
	// time.Time.Sub saturates rather than overflows, so the bound reads true.
	shift := at.Sub(wall).Round(time.Second)
	if shift > maxClockShift || shift < -maxClockShift {
		return 0, fmt.Errorf("set %q is too far from the wall clock: the sandbox's time stays within %s of it, from %s to %s",
			text, maxClockShiftText, wall.Add(-maxClockShift).UTC().Format(time.RFC3339), wall.Add(maxClockShift).UTC().Format(time.RFC3339))
	}
	return shift, nil
}

// maxClockShift bounds one advance and the whole shift either way (3660
// days, ten years), so no step, set or sum of steps can overflow.
const maxClockShift = maxClockDays * 24 * time.Hour

// maxClockDays is maxClockShift in days, the unit a step is written in.
const maxClockDays = 3660

// maxClockShiftText is the bound as a message says it.
const maxClockShiftText = "3660d (ten years)"

// clockDays writes a shift in whole days, rounded up, as a step is written.
func clockDays(d time.Duration) string {
	day := 24 * time.Hour
	return strconv.FormatInt(int64((d+day-1)/day), 10) + "d"
}

// durationShape is the syntax of a Go duration, so a step time.ParseDuration
// refuses for its size is told apart from one it cannot read. Made at
// first use.
var durationShape = lazyRegexp{pattern: `^[-+]?((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h))+$`}

// ParseClockStep reads a forward step of time: a Go duration (7h, 31m,
// 1h30m) or whole days (185d), with an optional leading +. A step beyond
// maxClockShift is refused as too large, never wrapped around.
func ParseClockStep(text string) (time.Duration, error) {
	t := strings.TrimPrefix(strings.TrimSpace(text), "+")
	backward := fmt.Errorf("advance %q must move forward; use set (a time) or reset to go back", text)
	tooLarge := fmt.Errorf("advance %q is too large: one step is at most %s", text, maxClockShiftText)
	unreadable := fmt.Errorf("advance %q must be a step forward such as 7h, 31m, 1h30m or 185d", text)
	if days, ok := strings.CutSuffix(t, "d"); ok {
		n, err := strconv.Atoi(days)
		switch {
		case errors.Is(err, strconv.ErrRange) && strings.HasPrefix(days, "-"):
			return 0, backward
		case errors.Is(err, strconv.ErrRange):
			return 0, tooLarge
		case err != nil:
			return 0, unreadable
		case n <= 0:
			return 0, backward
		case n > maxClockDays:
			return 0, tooLarge
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	step, err := time.ParseDuration(t)
	switch {
	case err != nil && durationShape.get().MatchString(t) && !strings.HasPrefix(t, "-"):
		return 0, tooLarge
	case err != nil && durationShape.get().MatchString(t):
		return 0, backward
	case err != nil || t == "":
		return 0, unreadable
	case step <= 0:
		return 0, backward
	case step > maxClockShift:
		return 0, tooLarge
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
