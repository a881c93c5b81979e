package support

import (
	"cardterm/ui/keymap"

	"context"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/domain/casefile"
	"cardterm/domain/runbook"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// The customer's timeline (t on a user's case): one list, newest first,
// of what the gateway can tell — the consent audit trail, read again
// each time with the client key, and the card transactions and wallet
// history gathered under an approved session (kept in the case) — and,
// under it, lines that say plainly what the interface cannot tell, so
// the agent does not guess.

// cannotTell are the questions no answer of the interface settles.
var cannotTell = []string{
	"Card state changes carry no actor or time in this interface: since when a card is frozen or blocked, and who did it, cannot be told.",
	"The faucet's state is only known when a delegation token is requested; the console never requests one, so whether gas was granted cannot be told.",
	"Verification reasons and transitions are not exposed: what a PENDING verification waits for, or why one was REJECTED, cannot be told.",
	"Webhook deliveries are not in the gateway's interface: whether an event reached a partner, and what their server answered, cannot be told here.",
	"Orders cannot be listed: an order is found only by the id the customer received, and its states are not shown.",
	"Whether two card transactions are one payment taken twice or a hold and its settlement is not said by the interface: compare their amount, merchant, time and status.",
}

// timelineRead is the audit trail read for the timeline.
type timelineRead struct {
	userID string
	events []casefile.Event
	total  int
	pages  []casefile.Answer // each audit page's answer, cited when kept
}

type timelineView struct {
	userID string
	table  table.Table
	events []casefile.Event
	total  int
	pages  []casefile.Answer
	loaded bool
	keys   timelineKeys
}

type timelineKeys struct{ Keep, Refresh, Back key.Binding }

func (k timelineKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Keep, k.Refresh, k.Back} }
func (k timelineKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

var _ help.KeyMap = timelineKeys{}

var timelineColumns = []table.Column{{Title: "Time", Width: 21}, {Title: "Source", Width: 18}, {Title: "What", Min: 20}}

func (s *Screen) openTimeline() tea.Cmd {
	t := &timelineView{userID: s.kase.id, table: table.New(s.Deps.Styles, timelineColumns), keys: timelineKeys{
		Keep:    keymap.Bind("support.open-timeline-keep"),
		Refresh: keymap.Bind("support.refresh"),
		Back:    keymap.Bind("support.back"),
	}}
	l := &timelineLayer{caseLayer: s.newCaseLayer(), timeline: t}
	l.SetSize(s.Width, s.Height)
	return ui.OpenLayer(l, s.readTimeline(t))
}

// readTimeline reads the audit trail in a command.
func (s *Screen) readTimeline(t *timelineView) tea.Cmd {
	client, id := s.readClient(), t.userID
	_, cmd := ui.Go(s.Requests, func(ctx context.Context) (timelineRead, error) {
		trail, err := runbook.ReadAudit(ctx, client, id)
		out := timelineRead{userID: id, total: trail.Total, pages: trail.Pages}
		if apiclient.IsNotFound(err) {
			return out, nil // no consent set: no audit trail, the rest still shows
		}
		for _, r := range trail.Records {
			out.events = append(out.events, runbook.AuditEvent(r))
		}
		return out, err
	})
	return cmd
}

func (s *Screen) gotTimeline(t *timelineView, msg ui.Result[timelineRead]) tea.Cmd {
	if msg.Value.userID != t.userID {
		return nil
	}
	if msg.Err != nil {
		return ui.ReportError("reading the audit trail", msg.Err)
	}
	events := slices.Clone(msg.Value.events)
	if s.caseFile != nil {
		events = append(events, s.caseFile.Events...)
	}
	// Newest first; the wire's RFC 3339 times sort as text.
	slices.SortStableFunc(events, func(a, b casefile.Event) int { return strings.Compare(b.Time, a.Time) })
	t.events, t.total, t.pages, t.loaded = events, msg.Value.total, msg.Value.pages, true
	rows := make([][]string, len(events))
	for i, e := range events {
		rows[i] = []string{screenkit.FormatTime(e.Time), e.Source, e.Text}
	}
	t.table.SetRows(rows)
	return nil
}

func (s *Screen) timelineKey(l *timelineLayer, msg tea.KeyPressMsg) tea.Cmd {
	t := l.timeline
	switch {
	case key.Matches(msg, t.keys.Back):
		l.closed = true
		return nil
	case key.Matches(msg, t.keys.Refresh):
		return s.readTimeline(t)
	case key.Matches(msg, t.keys.Keep):
		if len(t.pages) == 0 {
			return notify("the audit trail has not answered yet")
		}
		return s.keep("timeline of user "+t.userID, ansi.Strip(s.timelineView(t)), t.pages[0], t.pages[1:]...)
	}
	var cmd tea.Cmd
	t.table, cmd = t.table.Update(msg)
	return cmd
}

// timelineGaps are the lines under the list: what is not in it.
func (s *Screen) timelineGaps() []string {
	gaps := slices.Clone(cannotTell)
	customer := false
	if s.caseFile != nil {
		for _, e := range s.caseFile.Events {
			customer = customer || e.Source != "consent audit"
		}
	}
	if !customer {
		gaps = append([]string{"Card transactions and wallet history are read in the customer's session: none is kept in this case yet (a runbook run under an approved session keeps them here)."}, gaps...)
	}
	return gaps
}

// timelineTableHeight is the table's share of the timeline's height: what
// the text under it leaves, but never less than half, so the records stay
// readable at 80x24 (timelineView then shows the gaps that fit).
func (s *Screen) timelineTableHeight(height int) int {
	text := 3
	for _, g := range s.wrappedGaps() {
		text += len(g)
	}
	return max(height-text, height/2, 3)
}

// wrappedGaps are the gaps' sentences, each wrapped to the body's width.
func (s *Screen) wrappedGaps() [][]string {
	var out [][]string
	for _, g := range s.timelineGaps() {
		out = append(out, strings.Split(ansi.Wrap(g, max(s.Width-2, 20), " "), "\n"))
	}
	return out
}

func (s *Screen) timelineView(t *timelineView) string {
	st := s.Deps.Styles
	head := st.Title.Render("Timeline") + "  " + st.Muted.Render("user "+sanitize.Text(t.userID)+" · newest first")
	lines := []string{head}
	switch {
	case !t.loaded:
		lines = append(lines, st.Muted.Render("Reading the audit trail…"))
	default:
		lines = append(lines, st.Muted.Render(plural(len(t.events), "record")+" ("+plural(t.total, "audit record")+" at the gateway)"), t.table.View())
	}
	lines = append(lines, st.Subtitle.Render("What the gateway cannot tell"))
	// Whole sentences only: on a short terminal the rest is counted, not
	// cut mid-sentence.
	room := s.Height - len(strings.Split(strings.Join(lines, "\n"), "\n"))
	gaps := s.wrappedGaps()
	for i, g := range gaps {
		if len(g) > room || (i < len(gaps)-1 && len(g) == room) {
			lines = append(lines, st.Muted.Render(fmt.Sprintf("… %d more: a taller terminal shows them all", len(gaps)-i)))
			break
		}
		for j, l := range g {
			prefix := "  "
			if j == 0 {
				prefix = "● "
			}
			lines = append(lines, st.Text(theme.ToneWarn).Render(prefix+l))
		}
		room -= len(g)
	}
	return strings.Join(lines, "\n")
}
