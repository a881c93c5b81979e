package queue

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/domain/actionlog"
	"cardterm/domain/casefile"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
)

// desk is the cases folder as read.
type desk struct {
	cases    []casefile.Filed
	problems []string
}

// load reads the cases folder in a command.
func (q *Queue) load() tea.Cmd {
	dir := q.opts.Dir
	return ui.Start(q.requests, &q.loadID, func(context.Context) (desk, error) {
		cases, problems, err := casefile.List(dir)
		return desk{cases: cases, problems: problems}, err
	})
}

func (q *Queue) gotDesk(msg ui.Result[desk]) {
	q.loaded, q.err = true, msg.Err
	q.cases, q.problems = msg.Value.cases, msg.Value.problems
	q.refilter()
	q.SetSize(q.width, q.height)
}

// refilter shows the cases the filter keeps, in the chosen order,
// keeping the cursor on the case it was on.
func (q *Queue) refilter() {
	was, _ := q.selected()
	now, mine := q.opts.Now(), q.opts.Agent
	var kept []*casefile.Case
	paths := map[*casefile.Case]string{}
	for _, f := range q.cases {
		c := f.Case
		status := c.Status()
		keep := status != casefile.StatusSolved
		switch q.filter {
		case filterMine:
			keep = keep && c.State.Owner.Value == mine
		case filterUnassigned:
			keep = keep && c.State.Owner.Value == ""
		case filterOverdue:
			keep = c.Overdue(now, q.opts.ResponseTimes)
		case filterWaiting:
			keep = status == casefile.StatusWaitingCustomer || status == casefile.StatusWaitingEngineering
		}
		if keep {
			kept = append(kept, c)
			paths[c] = f.Path
		}
	}
	if q.byAge {
		slices.SortStableFunc(kept, func(a, b *casefile.Case) int { return a.Created.Compare(b.Created) })
	} else {
		casefile.SortByDue(kept, q.opts.ResponseTimes)
	}
	q.shown = q.shown[:0]
	for _, c := range kept {
		q.shown = append(q.shown, casefile.Filed{Path: paths[c], Case: c})
	}
	q.table.SetRows(q.rows())
	for i, f := range q.shown {
		if f.Path == was.Path {
			q.table.SetCursor(i)
		}
	}
}

// changed is a change of a case, written: the case as it now is.
type changed struct {
	path    string
	ticket  string
	what    string
	news    []string
	logErr  error
	written *casefile.Case
}

// edit is one change of a case's state, made on the case as on disk.
type edit struct {
	action string // the action log's name for it
	what   string // what it did, in words
	apply  func(c *casefile.Case, at time.Time) error
}

func take(agent string) edit {
	return edit{action: actionlog.ActionCaseTaken, what: "taken by " + agent, apply: func(c *casefile.Case, at time.Time) error {
		c.Take(agent, at)
		return nil
	}}
}

func nextStatus(status, agent string) edit {
	i := slices.Index(casefile.Statuses, status)
	next := casefile.Statuses[(i+1)%len(casefile.Statuses)]
	return edit{action: actionlog.ActionCaseStatus, what: "now " + casefile.StatusLabel(next), apply: func(c *casefile.Case, at time.Time) error {
		return c.SetStatus(next, agent, at)
	}}
}

func nextPriority(priority, agent string) edit {
	i := slices.Index(casefile.Priorities, priority)
	next := casefile.Priorities[(i+1)%len(casefile.Priorities)]
	return edit{action: actionlog.ActionCasePriority, what: "priority " + next, apply: func(c *casefile.Case, at time.Time) error {
		return c.SetPriority(next, agent, at)
	}}
}

func handOver(to, agent string) edit {
	what := "handed over to " + to
	if to == "" {
		what = "left unassigned"
	}
	return edit{action: actionlog.ActionCaseHandedOver, what: what, apply: func(c *casefile.Case, at time.Time) error {
		c.HandOver(to, agent, at)
		return nil
	}}
}

// change makes an edit in a command: the case read as it is on disk,
// changed, written under its lock (merged with any write made between),
// then logged.
func (q *Queue) change(f casefile.Filed, e edit) tea.Cmd {
	agent, now, log, write := q.opts.Agent, q.opts.Now().UTC(), q.opts.Log, q.opts.Write
	_, cmd := ui.Go(q.requests, func(context.Context) (changed, error) {
		c, err := casefile.Load(f.Path)
		if err != nil {
			return changed{}, err
		}
		if err := e.apply(c, now); err != nil {
			return changed{}, err
		}
		written, err := write(c, f.Path, agent, now)
		if err != nil {
			return changed{}, err
		}
		out := changed{path: f.Path, ticket: c.Ticket, what: e.what, news: written.News, written: written.Case}
		if log != nil {
			out.logErr = log(e.action, c.Ticket, c.Customer(), "ok: "+e.what)
		}
		return out, nil
	})
	return cmd
}

func (q *Queue) gotChange(msg ui.Result[changed]) tea.Cmd {
	if msg.Err != nil {
		return ui.ReportError("changing the case", msg.Err)
	}
	v := msg.Value
	for i := range q.cases {
		if q.cases[i].Path == v.path {
			q.cases[i].Case = v.written
		}
	}
	q.refilter()
	said, tone := "case "+v.ticket+" "+v.what, theme.ToneOK
	if len(v.news) > 0 {
		said += "; another agent had changed it (merged): " + strings.Join(v.news, "; ")
		tone = theme.ToneWarn
	}
	cmds := []tea.Cmd{ui.Notify(tone, said)}
	if v.logErr != nil {
		cmds = append(cmds, ui.Notify(theme.ToneWarn, "the action log has no line for this change: "+v.logErr.Error()))
	}
	return tea.Batch(cmds...)
}

// openHandover asks whom to hand the case to.
func (q *Queue) openHandover(f casefile.Filed) tea.Cmd {
	q.handFor = f.Path
	q.handover = form.New(q.styles, form.Spec{
		Title:  "Hand case " + f.Case.Ticket + " over",
		Lines:  []string{"The agent who takes it on (empty: back to unassigned)."},
		Submit: "hand over",
		Fields: []form.Field{{Key: "agent", Label: "Agent", CharLimit: 64, Value: f.Case.State.Owner.Value}},
	})
	q.handover.SetWidth(min(q.width, 72))
	return q.handover.Focus()
}

func (q *Queue) handoverKey(msg tea.KeyPressMsg) tea.Cmd {
	ev, cmd := q.handover.Update(msg)
	switch ev {
	case form.Cancel:
		q.handover = nil
		return nil
	case form.Submit:
		to := strings.TrimSpace(q.handover.Value("agent"))
		q.handover = nil
		for _, f := range q.cases {
			if f.Path == q.handFor {
				return q.change(f, handOver(to, q.opts.Agent))
			}
		}
		return ui.ReportError("handing over", errors.New("the case is no longer in the folder"))
	}
	return cmd
}
