package queue

import (
	"strings"
	"testing"
	"time"

	"cardterm/domain/casefile"
	"cardterm/theme"
	"cardterm/ui"
)

// Each filter keeps the cases it names, sorted by due, the most
// overdue first; solved cases are never in the queue.
func TestFiltersAndOrder(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	now := t0.Add(30 * time.Hour)
	mk := func(ticket string, created time.Time, change func(c *casefile.Case)) casefile.Filed {
		c := casefile.New(ticket, "ck", created)
		change(c)
		return casefile.Filed{Path: ticket, Case: c}
	}
	cases := []casefile.Filed{
		mk("LATE", t0, func(c *casefile.Case) {}),                                      // due t0+24h: overdue
		mk("MINE", t0.Add(20*time.Hour), func(c *casefile.Case) { c.Take("ana", t0) }), // due in 14 h
		mk("WAIT", t0, func(c *casefile.Case) { _ = c.SetStatus(casefile.StatusWaitingEngineering, "ben", t0) }),
		mk("DONE", t0, func(c *casefile.Case) { _ = c.SetStatus(casefile.StatusSolved, "ben", t0) }),
	}
	st := theme.New(true, false)
	q := New(&st, ui.NewRequests().For(ui.ScreenSupport), Options{Dir: "d", Agent: "ana", Now: func() time.Time { return now }})
	q.cases, q.loaded = cases, true
	for _, c := range []struct {
		f    filter
		want []string
	}{
		{filterAll, []string{"LATE", "MINE", "WAIT"}},
		{filterMine, []string{"MINE"}},
		{filterUnassigned, []string{"LATE", "WAIT"}},
		{filterOverdue, []string{"LATE"}},
		{filterWaiting, []string{"WAIT"}},
	} {
		q.filter = c.f
		q.refilter()
		var got []string
		for _, f := range q.shown {
			got = append(got, f.Case.Ticket)
		}
		if len(got) != len(c.want) {
			t.Fatalf("%s: %v, want %v", c.f, got, c.want)
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Fatalf("%s: %v, want %v", c.f, got, c.want)
			}
		}
	}
	q.filter = filterAll
	q.refilter()
	if row := q.rows()[0]; row[1] != "OVERDUE 6 h" {
		t.Fatalf("the overdue case's due cell: %q", row[1])
	}
}

// The desk counts the files it left out in words, one file or many.
func TestTheDeskCountsFilesLeftOut(t *testing.T) {
	st := theme.New(true, false)
	q := New(&st, ui.NewRequests().For(ui.ScreenSupport), Options{Dir: "d", Agent: "ana", Now: time.Now})
	q.SetSize(120, 30)
	q.loaded = true
	for _, c := range []struct {
		problems []string
		want     string
	}{
		{[]string{"case-A.json: not a regular file"}, "1 file left out: case-A.json"},
		{[]string{"case-A.json: not a regular file", "case-B.json: not a regular file"}, "2 files left out: case-A.json"},
	} {
		q.problems = c.problems
		if view := q.View(); !strings.Contains(view, c.want) {
			t.Errorf("%d problems: want %q in\n%s", len(c.problems), c.want, view)
		}
	}
}
