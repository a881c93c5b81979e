package queue

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"cardterm/domain/casefile"
	"cardterm/domain/humantime"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// columns of the queue: the most telling first, so that a narrow
// terminal keeps the ticket, the owner, the status and when it is due.
var columns = []table.Column{
	{Title: "Ticket", Min: 8}, {Title: "Due", Min: 7}, {Title: "Status", Min: 18}, {Title: "Owner", Min: 10},
	{Title: "Priority", Width: 8}, {Title: "Age", Width: 6}, {Title: "Customer", Min: 8}, {Title: "Last action", Min: 10},
}

// rows are the shown cases as the table draws them.
func (q *Queue) rows() [][]string {
	now := q.opts.Now()
	out := make([][]string, len(q.shown))
	for i, f := range q.shown {
		c := f.Case
		last := "none"
		if a, ok := c.LastActivity(); ok {
			last = a.Action + " · " + a.Agent
		}
		out[i] = []string{c.Ticket, dueCell(c, now, q.opts.ResponseTimes), statusCell(c.Status()),
			ownerCell(c.State.Owner.Value), c.Priority(), span(now.Sub(c.Created)), orDash(c.Customer()), last}
		for j := range out[i] {
			out[i][j] = sanitize.Text(out[i][j]) // from files other agents wrote
		}
	}
	return out
}

// dueCell says when a case is due, in a few characters.
func dueCell(c *casefile.Case, now time.Time, responseTimes map[string]time.Duration) string {
	due, ok := c.Due(responseTimes)
	switch {
	case !ok:
		return "—"
	case now.After(due):
		return "OVERDUE " + span(now.Sub(due))
	}
	return "in " + span(due.Sub(now))
}

// span is a duration in a cell's few characters: "45 min", "23 h",
// "3 d" (the detail line under the list says it in full).
func span(d time.Duration) string {
	switch {
	case d < time.Hour:
		return fmt.Sprintf("%d min", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int(d.Hours()))
	}
	return fmt.Sprintf("%d d", int(d.Hours()/24))
}

// statusCell is a status in a table's few characters.
func statusCell(status string) string {
	switch status {
	case casefile.StatusWaitingCustomer:
		return "waiting (customer)"
	case casefile.StatusWaitingEngineering:
		return "waiting (engineering)"
	}
	return status
}

func ownerCell(owner string) string {
	if owner == "" {
		return "unassigned"
	}
	return owner
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// head is the lines above the table: the title, where the desk is, the
// filter and the order, and the counts.
func (q *Queue) head() []string {
	st := q.styles
	order := "sorted by due"
	if q.byAge {
		order = "sorted by age"
	}
	overdue, open := 0, 0
	for _, f := range q.cases {
		if f.Case.Status() != casefile.StatusSolved {
			open++
		}
		if f.Case.Overdue(q.opts.Now(), q.opts.ResponseTimes) {
			overdue++
		}
	}
	lines := []string{st.Title.Render("Support desk") + "  " + st.Muted.Render("cases in "+sanitize.Text(q.opts.Dir)),
		st.Muted.Render(fmt.Sprintf("Showing %s (%s) · %s (%s) · %d not solved, %d overdue · you are %s",
			q.filter, q.keys.Filter.Help().Key, order, q.keys.Sort.Help().Key, open, overdue, sanitize.Text(q.opts.Agent)))}
	return q.wrap(lines)
}

// foot is the lines under the table: the last change, files left out.
func (q *Queue) foot() []string {
	st := q.styles
	var lines []string
	if f, ok := q.selected(); ok {
		// What the table may shorten, whole: the customer and the last action.
		c := f.Case
		line := st.Value.Render(sanitize.Text(c.Ticket)) + st.Muted.Render(" · "+casefile.StatusLabel(c.Status())+" · customer ") + st.Value.Render(sanitize.Text(orDash(c.Customer())))
		if a, ok := c.LastActivity(); ok {
			line += st.Muted.Render(" · last: " + sanitize.Text(a.Action+" by "+a.Agent+", "+humantime.Relative(a.Time, q.opts.Now())))
		}
		line += st.Muted.Render(" · due " + casefile.DueText(c, q.opts.Now(), q.opts.ResponseTimes) + " · next: " + sanitize.Text(casefile.NextStep(c)))
		lines = append(lines, line)
	}
	if len(q.problems) > 0 {
		files := screenkit.Plural(len(q.problems), "file", "files")
		lines = append(lines, st.Text(theme.ToneWarn).Render(fmt.Sprintf("%d %s left out: %s", len(q.problems), files, sanitize.Text(strings.Join(q.problems, "; ")))))
	}
	return q.wrap(lines)
}

// wrap folds lines to the width, so a line never runs off the screen.
func (q *Queue) wrap(lines []string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, strings.Split(ansi.Wrap(l, max(q.width, 20), " "), "\n")...)
	}
	return out
}

// chromeHeight is the lines the head and foot take.
func (q *Queue) chromeHeight() int { return len(q.head()) + len(q.foot()) + 2 }

// View draws the queue (or the hand-over form).
func (q *Queue) View() string {
	st := q.styles
	if q.handover != nil {
		return st.Title.Render("Support desk") + "\n\n" + q.handover.View()
	}
	body := strings.Join(q.head(), "\n") + "\n\n"
	switch {
	case !q.loaded:
		body += st.Muted.Render("Reading the cases folder…")
	case q.err != nil:
		body += st.Text(theme.ToneDanger).Render(ui.FitLine("The cases folder could not be read: "+sanitize.Text(q.err.Error()), max(q.width, 20)))
	case len(q.cases) == 0:
		body += st.Muted.Render(ui.FitLine("No case yet. "+keymap.Key("support.back")+", then "+keymap.Key("support.user")+" looks a customer up and "+keymap.Key("support.ticket")+" sets a ticket: its case appears here for the whole desk.", max(q.width, 20)))
	case len(q.shown) == 0:
		body += st.Muted.Render("No case is " + q.filter.String() + " (" + q.keys.Filter.Help().Key + " shows the others).")
	default:
		body += q.table.View()
	}
	if foot := q.foot(); len(foot) > 0 {
		body += "\n" + strings.Join(foot, "\n")
	}
	return body
}
