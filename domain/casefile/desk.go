package casefile

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"cardterm/domain/humantime"
)

// The desk: every case of a cases folder, as a queue and as a shift's
// handover.

// Filed is a case and the file it was read from.
type Filed struct {
	Path string
	Case *Case
}

// List reads every case file of dir (case-*.json), oldest first; a file
// that is not a case is named in problems and left out, so one bad file
// never hides the others. A missing folder is an empty desk.
func List(dir string) (cases []Filed, problems []string, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "case-*.json"))
	if err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		if info, err := os.Lstat(f); err != nil || !info.Mode().IsRegular() {
			problems = append(problems, filepath.Base(f)+": not a regular file")
			continue
		}
		c, err := Load(f)
		if err != nil {
			problems = append(problems, fileProblem(f, err))
			continue
		}
		cases = append(cases, Filed{Path: f, Case: c})
	}
	slices.SortStableFunc(cases, func(a, b Filed) int { return a.Case.Created.Compare(b.Case.Created) })
	return cases, problems, nil
}

// fileProblem says why the file f was left out, naming it once by its
// base name: the folder is on the desk's header already.
func fileProblem(f string, err error) string {
	text := strings.ReplaceAll(err.Error(), f, filepath.Base(f))
	if !strings.Contains(text, filepath.Base(f)) {
		text = filepath.Base(f) + ": " + text
	}
	return text
}

// ParseResponseTimes reads "urgent=1h,high=4h,normal=24h,low=72h" (any
// of the four; the others keep DefaultResponseTimes).
func ParseResponseTimes(text string) (map[string]time.Duration, error) {
	out := DefaultResponseTimes()
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, value, ok := strings.Cut(part, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if !ok || !slices.Contains(Priorities, name) {
			return nil, fmt.Errorf("%q: write PRIORITY=DURATION, the priorities being %s (urgent=1h,high=4h)", part, strings.Join(Priorities, ", "))
		}
		d, err := time.ParseDuration(strings.TrimSpace(value))
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("%q: %q is not a positive duration such as 4h or 90m", part, strings.TrimSpace(value))
		}
		out[name] = d
	}
	return out, nil
}

// Handover is a shift's handover: every case not solved that was worked
// since `since` (all of them when since is zero), most urgent due first,
// each with its owner, status, due, last note and next step.
func Handover(cases []Filed, since, now time.Time, responseTimes map[string]time.Duration) string {
	var open []*Case
	for _, f := range cases {
		c := f.Case
		last, _ := c.LastActivity()
		if c.Status() == StatusSolved || (!since.IsZero() && last.Time.Before(since) && c.Created.Before(since)) {
			continue
		}
		open = append(open, c)
	}
	SortByDue(open, responseTimes)
	var b strings.Builder
	window := "all open cases"
	if !since.IsZero() {
		window = "cases worked since " + since.Local().Format("2006-01-02 15:04 MST")
	}
	fmt.Fprintf(&b, "Handover, %s: %s, %d not solved\n", now.Local().Format("2006-01-02 15:04 MST"), window, len(open))
	for _, c := range open {
		b.WriteString("\n" + c.Ticket + " · " + c.Priority() + " · " + StatusLabel(c.Status()) + " · owner " + orDefault(c.State.Owner.Value, "unassigned") + "\n")
		if customer := c.Customer(); customer != "" {
			b.WriteString("  customer: " + customer + "\n")
		}
		b.WriteString("  due: " + DueText(c, now, responseTimes) + "\n")
		if n, ok := c.LastNote(); ok {
			first, _, more := strings.Cut(n.Text, "\n")
			if more {
				first += " …"
			}
			b.WriteString("  last note (" + n.Agent + ", " + n.Time.Local().Format("2006-01-02 15:04") + "): " + first + "\n")
		} else {
			b.WriteString("  last note: none\n")
		}
		b.WriteString("  next step: " + NextStep(c) + "\n")
	}
	return b.String()
}

// SortByDue orders cases by when they are due, soonest (or most overdue)
// first; cases due nowhere (waiting) come after, oldest first.
func SortByDue(cases []*Case, responseTimes map[string]time.Duration) {
	slices.SortStableFunc(cases, func(a, b *Case) int {
		da, oka := a.Due(responseTimes)
		db, okb := b.Due(responseTimes)
		switch {
		case oka && okb:
			return da.Compare(db)
		case oka:
			return -1
		case okb:
			return 1
		}
		return a.Created.Compare(b.Created)
	})
}

// DueText says when a case is due: "in 3 h 20 min (2026-11-27 13:00)",
// "OVERDUE by 2 h", or why it is due nowhere.
func DueText(c *Case, now time.Time, responseTimes map[string]time.Duration) string {
	due, ok := c.Due(responseTimes)
	if !ok {
		return "not due: " + StatusLabel(c.Status())
	}
	at := due.Local().Format("2006-01-02 15:04")
	if now.After(due) {
		return "OVERDUE by " + humantime.Duration(now.Sub(due)) + " (" + at + ")"
	}
	return "in " + humantime.Duration(due.Sub(now)) + " (" + at + ")"
}

// Overdue reports a case open past its due time.
func (c *Case) Overdue(now time.Time, responseTimes map[string]time.Duration) bool {
	due, ok := c.Due(responseTimes)
	return ok && now.After(due)
}

// NextStep is the step an agent set, else what the status calls for.
func NextStep(c *Case) string {
	if c.State.NextStep.Value != "" {
		return c.State.NextStep.Value + " (" + c.State.NextStep.By + ")"
	}
	switch c.Status() {
	case StatusWaitingCustomer:
		return "wait for the customer's answer; follow up if none comes"
	case StatusWaitingEngineering:
		return "chase engineering for an answer"
	case StatusSolved:
		return "none: solved"
	}
	if c.State.Owner.Value == "" {
		return "take the case and answer the customer"
	}
	return "answer the customer"
}
