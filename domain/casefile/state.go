package casefile

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// A case's place in the desk's queue: who owns it, its status and
// priority, and the next step. Each is a Mark (value, when, by whom), so
// that two agents changing a case at once merge to the later change
// instead of the last writer's.

// Statuses of a case.
const (
	StatusOpen               = "open"
	StatusWaitingCustomer    = "waiting-customer"
	StatusWaitingEngineering = "waiting-engineering"
	StatusSolved             = "solved"
)

// Statuses lists them in the order the queue cycles through.
var Statuses = []string{StatusOpen, StatusWaitingCustomer, StatusWaitingEngineering, StatusSolved}

// StatusLabel is a status as people read it.
func StatusLabel(status string) string {
	switch status {
	case StatusWaitingCustomer:
		return "waiting on the customer"
	case StatusWaitingEngineering:
		return "waiting on engineering"
	case "":
		return StatusOpen
	}
	return status
}

// Priorities, most pressing first.
var Priorities = []string{"urgent", "high", "normal", "low"}

// DefaultResponseTimes are how long a case of each priority may wait for
// an answer, when the profile sets none. A fresh map on each call: a
// package map would be built before main on every start.
func DefaultResponseTimes() map[string]time.Duration {
	return map[string]time.Duration{
		"urgent": time.Hour, "high": 4 * time.Hour, "normal": 24 * time.Hour, "low": 72 * time.Hour,
	}
}

// Mark is one value of the case's state with when and by whom it was set.
type Mark struct {
	Value string    `json:"value,omitempty"`
	At    time.Time `json:"at,omitzero"`
	By    string    `json:"by,omitempty"`
}

// later is the mark set last (ties go to the agent named last, so that
// every agent merges to the same value).
func later(a, b Mark) Mark {
	if b.At.After(a.At) || (b.At.Equal(a.At) && b.By > a.By) {
		return b
	}
	return a
}

// State is the case's place in the queue.
type State struct {
	Owner    Mark `json:"owner,omitzero"`
	Status   Mark `json:"status,omitzero"`
	Priority Mark `json:"priority,omitzero"`
	NextStep Mark `json:"nextStep,omitzero"`
}

// Status is the case's status ("open" until set).
func (c *Case) Status() string { return orDefault(c.State.Status.Value, StatusOpen) }

// Priority is the case's priority ("normal" until set).
func (c *Case) Priority() string { return orDefault(c.State.Priority.Value, "normal") }

func orDefault(v, d string) string {
	if v == "" {
		return d
	}
	return v
}

// Customer is the user id the case is about: its last user look-up
// (else its last onboarding look-up), "" before any.
func (c *Case) Customer() string {
	for i := len(c.Lookups) - 1; i >= 0; i-- {
		if c.Lookups[i].Kind == "user" {
			return c.Lookups[i].ID
		}
	}
	if n := len(c.Lookups); n > 0 {
		return c.Lookups[n-1].ID
	}
	return ""
}

// Take makes agent the owner.
func (c *Case) Take(agent string, at time.Time) {
	from := c.State.Owner.Value
	c.State.Owner = Mark{Value: agent, At: at.UTC(), By: agent}
	detail := "unassigned before"
	if from != "" {
		detail = "from " + from
	}
	c.Did(Activity{Time: at.UTC(), Agent: agent, Action: "case taken", Detail: detail})
}

// HandOver gives the case to another agent ("" leaves it unassigned).
func (c *Case) HandOver(to, agent string, at time.Time) {
	c.State.Owner = Mark{Value: strings.TrimSpace(to), At: at.UTC(), By: agent}
	detail := "to " + orDefault(strings.TrimSpace(to), "nobody (unassigned)")
	c.Did(Activity{Time: at.UTC(), Agent: agent, Action: "case handed over", Detail: detail})
}

// SetStatus changes the status; an unknown one is refused.
func (c *Case) SetStatus(status, agent string, at time.Time) error {
	if !slices.Contains(Statuses, status) {
		return fmt.Errorf("status %q: a case is %s", status, strings.Join(Statuses, ", "))
	}
	c.State.Status = Mark{Value: status, At: at.UTC(), By: agent}
	c.Did(Activity{Time: at.UTC(), Agent: agent, Action: "status changed", Detail: "now " + StatusLabel(status)})
	return nil
}

// SetPriority changes the priority; an unknown one is refused.
func (c *Case) SetPriority(priority, agent string, at time.Time) error {
	if !slices.Contains(Priorities, priority) {
		return fmt.Errorf("priority %q: a case is %s", priority, strings.Join(Priorities, ", "))
	}
	c.State.Priority = Mark{Value: priority, At: at.UTC(), By: agent}
	c.Did(Activity{Time: at.UTC(), Agent: agent, Action: "priority changed", Detail: "now " + priority})
	return nil
}

// SetNextStep says what is to be done next (for the handover).
func (c *Case) SetNextStep(step, agent string, at time.Time) {
	c.State.NextStep = Mark{Value: strings.TrimSpace(step), At: at.UTC(), By: agent}
	c.Did(Activity{Time: at.UTC(), Agent: agent, Action: "next step set", Detail: strings.TrimSpace(step)})
}

// Due is when the case must be answered: the response time of its
// priority from when it was opened (or last reopened). A case waiting or
// solved is due nowhere: ok is false.
func (c *Case) Due(responseTimes map[string]time.Duration) (time.Time, bool) {
	if c.Status() != StatusOpen {
		return time.Time{}, false
	}
	wait, ok := responseTimes[c.Priority()]
	if !ok {
		wait = DefaultResponseTimes()[c.Priority()]
	}
	from := c.Created
	if c.State.Status.At.After(from) {
		from = c.State.Status.At // reopened
	}
	return from.Add(wait), true
}

// LastActivity is what was done last in the case, by whom and when.
func (c *Case) LastActivity() (Activity, bool) {
	var last Activity
	found := false
	for _, a := range c.Activity {
		if !found || !a.Time.Before(last.Time) { // of two at once, the later written
			last, found = a, true
		}
	}
	for _, l := range c.Lookups {
		if !found || l.Time.After(last.Time) {
			last, found = Activity{Time: l.Time, Agent: l.Agent, Action: "looked up " + l.Kind + " " + l.ID}, true
		}
	}
	return last, found
}

// LastNote is the latest note, if any.
func (c *Case) LastNote() (Note, bool) {
	var last Note
	found := false
	for _, n := range c.Notes {
		if !found || n.Time.After(last.Time) {
			last, found = n, true
		}
	}
	return last, found
}
