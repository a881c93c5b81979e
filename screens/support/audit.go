package support

import (
	"cardterm/ui/keymap"

	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/casefile"
	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// auditPageSize is how many records one request asks for (the interface's
// default page; the maximum is 100).
const auditPageSize = 50

// auditView is the audit trail as a timeline: every page fetched in turn
// (a count that climbs; esc stops), filters by consent type and status,
// search over what is loaded, and for each record what changed and who
// made the change.
type auditView struct {
	deps     screenkit.Deps
	requests ui.Owner
	client   *apiclient.Client
	userID   string
	keys     auditKeys
	table    table.Table
	width    int
	height   int

	records []apiclient.AuditRecord // every record loaded, oldest page first
	// answers are, per record, the answer of the page that held it, so
	// that evidence cites that page and its hash.
	answers []casefile.Answer
	times   []time.Time // each record's timestamp, read once
	cells   [][]string  // each record's row, formatted once
	shown   []int       // indices into records that pass the filters
	total   int
	loading bool
	stopped bool
	err     error
	pageID  ui.RequestID

	typeFilter   string // "" is every consent type
	statusFilter string // "" is every status
	// oldestFirst reverses the timeline, which is newest first.
	oldestFirst bool
}

type auditKeys struct {
	Type, Status, Reverse, Stop, Close key.Binding
}

var auditColumns = []table.Column{
	{Title: "Time", Width: 20}, {Title: "Action", Width: 8}, {Title: "Consent", Min: 14},
	{Title: "Change", Width: 20}, {Title: "By", Min: 10}, {Title: "Set", Width: 13},
}

func newAuditView(deps screenkit.Deps, requests ui.Owner, client *apiclient.Client, userID string) *auditView {
	return &auditView{deps: deps, requests: requests, client: client, userID: userID,
		table: table.New(deps.Styles, auditColumns),
		keys: auditKeys{
			Type:    keymap.Bind("support.type"),
			Status:  keymap.Bind("support.status"),
			Reverse: keymap.Bind("support.reverse"),
			Stop:    keymap.Bind("support.stop"),
			Close:   keymap.Bind("support.close"),
		}}
}

// start fetches the trail from its first page, from empty.
func (a *auditView) start() tea.Cmd {
	a.records, a.answers, a.times, a.cells, a.shown, a.total = nil, nil, nil, nil, nil, 0
	a.loading, a.stopped, a.err = true, false, nil
	a.refilter()
	return a.fetch(0)
}

// auditPage is one page of the trail with the answer that carried it.
type auditPage struct {
	page   apiclient.ConsentAuditPage
	answer casefile.Answer
}

func (a *auditView) fetch(offset int) tea.Cmd {
	client, id := a.client, a.userID
	return ui.Start(a.requests, &a.pageID, func(ctx context.Context) (auditPage, error) {
		ctx, captured := casefile.Capture(ctx)
		page, err := client.ConsentAudit(ctx, id, auditPageSize, offset)
		answer, _ := captured.Last()
		return auditPage{page: page, answer: answer}, err
	})
}

// CapturesKeys reports whether the search has the keys.
func (a *auditView) CapturesKeys() bool { return a.table.Filtering() }

// KeyMap is the timeline's keys and the table's.
func (a *auditView) KeyMap() help.KeyMap {
	k := a.keys
	k.Stop.SetEnabled(a.loading)
	k.Close.SetEnabled(!a.loading)
	return ui.KeyMapFunc{
		Short: func() []key.Binding {
			return append([]key.Binding{k.Type, k.Status, k.Reverse}, append(a.table.KeyMap().ShortHelp(), k.Stop, k.Close)...)
		},
		Full: func() [][]key.Binding {
			return append([][]key.Binding{{k.Type, k.Status, k.Reverse, k.Stop, k.Close}}, a.table.KeyMap().FullHelp()...)
		},
	}
}

// SetSize lays the timeline out: the header, the table, the detail.
func (a *auditView) SetSize(width, height int) {
	a.width, a.height = width, height
	a.table.SetSize(width, max(height-3-detailLines(width), 3))
}

// detailLines is the height of the selected record's detail at width: four
// groups of pairs, the first three wrapping on narrow terminals (two ids
// take 85 columns; a change and its time about 70; who and from about 50).
func detailLines(width int) int {
	lines := 4
	for _, fits := range []int{86, 70, 50} {
		if width < fits {
			lines++
		}
	}
	return lines
}

// update takes the pages and the keys; nil closes the timeline.
func (a *auditView) update(msg tea.Msg) (*auditView, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.Result[auditPage]:
		if msg.ID != a.pageID {
			return a, nil
		}
		if msg.Err != nil {
			a.loading = false
			a.err = msg.Err
			// Said on the console: a tenant's read never ends a session.
			return a, ui.ReportError("reading the audit trail", msg.Err)
		}
		page := msg.Value.page
		a.records = append(a.records, page.AuditRecords...)
		for range page.AuditRecords {
			a.answers = append(a.answers, msg.Value.answer)
		}
		a.times = append(a.times, recordTimes(page.AuditRecords)...)
		a.cells = append(a.cells, recordCells(page.AuditRecords)...)
		a.total = max(page.Pagination.Total, len(a.records))
		a.refilter()
		next := page.Pagination.Offset + len(page.AuditRecords)
		if a.stopped || len(page.AuditRecords) == 0 || next >= page.Pagination.Total {
			a.loading = false
			return a, nil
		}
		return a, a.fetch(next)
	case tea.KeyPressMsg:
		if cmd, ok := a.table.FilterKey(msg); ok {
			return a, cmd
		}
		switch {
		case key.Matches(msg, a.keys.Stop) && a.loading:
			a.loading, a.stopped = false, true
			a.requests.Cancel()
			return a, notify(fmt.Sprintf("stopped: %d of %d records loaded", len(a.records), a.total))
		case key.Matches(msg, a.keys.Close):
			return nil, nil
		case key.Matches(msg, a.keys.Reverse):
			a.oldestFirst = !a.oldestFirst
			a.refilter()
			return a, nil
		case key.Matches(msg, a.keys.Type):
			a.typeFilter = nextOf(a.values(func(r apiclient.AuditRecord) string { return r.Changes.After.ConsentType }), a.typeFilter)
			a.refilter()
			return a, nil
		case key.Matches(msg, a.keys.Status):
			a.statusFilter = nextOf(a.values(func(r apiclient.AuditRecord) string { return r.Changes.After.ConsentStatus }), a.statusFilter)
			a.refilter()
			return a, nil
		}
	}
	var cmd tea.Cmd
	a.table, cmd = a.table.Update(msg)
	return a, cmd
}

// values lists the distinct values of a field among the loaded records.
func (a *auditView) values(of func(apiclient.AuditRecord) string) []string {
	var out []string
	for _, r := range a.records {
		if v := of(r); v != "" && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// nextOf cycles "" (all) → each value → "".
func nextOf(values []string, cur string) string {
	i := slices.Index(values, cur)
	if i+1 < len(values) {
		return values[i+1]
	}
	return ""
}

// refilter rebuilds the rows from the records that pass the filters,
// sorted by time (newest first unless reversed) whatever order the
// gateway sent them in, keeping the table's search.
func (a *auditView) refilter() {
	a.shown = a.shown[:0]
	for i := range a.records {
		r := a.records[i]
		if a.typeFilter != "" && r.Changes.After.ConsentType != a.typeFilter {
			continue
		}
		if a.statusFilter != "" && r.Changes.After.ConsentStatus != a.statusFilter {
			continue
		}
		a.shown = append(a.shown, i)
	}
	sortByTime(a.shown, a.times, a.oldestFirst)
	rows := make([][]string, len(a.shown))
	for j, i := range a.shown {
		rows[j] = a.cells[i]
	}
	a.table.SetRows(rows)
}

// recordCells formats the records' rows, once per record.
func recordCells(records []apiclient.AuditRecord) [][]string {
	out := make([][]string, len(records))
	for i, r := range records {
		out[i] = []string{screenkit.FormatTime(r.Timestamp), r.Action, r.Changes.After.ConsentType, change(r), madeBy(r.Metadata), r.ConsentSetID}
	}
	return out
}

// recordTimes reads the records' timestamps, once per record; a time the
// gateway wrote in another form sorts as the oldest.
func recordTimes(records []apiclient.AuditRecord) []time.Time {
	out := make([]time.Time, len(records))
	for i, r := range records {
		out[i], _ = time.Parse(time.RFC3339Nano, r.Timestamp)
	}
	return out
}

// sortByTime orders indices by their times, newest first (or oldest
// first); records of one instant keep the gateway's order.
func sortByTime(indices []int, times []time.Time, oldestFirst bool) {
	slices.SortStableFunc(indices, func(x, y int) int {
		if oldestFirst {
			return times[x].Compare(times[y])
		}
		return times[y].Compare(times[x])
	})
}

// sortedRecords is every record, newest first.
func sortedRecords(records []apiclient.AuditRecord) []apiclient.AuditRecord {
	indices := make([]int, len(records))
	for i := range indices {
		indices[i] = i
	}
	sortByTime(indices, recordTimes(records), false)
	out := make([]apiclient.AuditRecord, len(records))
	for j, i := range indices {
		out[j] = records[i]
	}
	return out
}

// change says what a record changed from the consent's previous state.
func change(r apiclient.AuditRecord) string {
	if r.Changes.Before == nil {
		return "new: " + r.Changes.After.ConsentStatus
	}
	if r.Changes.Before.ConsentStatus == r.Changes.After.ConsentStatus {
		return r.Changes.After.ConsentStatus + " (" + r.Action + ")"
	}
	return r.Changes.Before.ConsentStatus + " → " + r.Changes.After.ConsentStatus
}

// madeBy names who or what made a change, from the metadata recorded.
func madeBy(m apiclient.ConsentMetadata) string {
	switch {
	case m.ClientID != "":
		return m.ClientID
	case m.UserAgent != "":
		return m.UserAgent
	case m.IPAddress != "":
		return m.IPAddress
	}
	return "not recorded"
}

// selected is the record under the cursor.
func (a *auditView) selected() (apiclient.AuditRecord, bool) {
	i, ok := a.table.Cursor()
	if !ok || i >= len(a.shown) {
		return apiclient.AuditRecord{}, false
	}
	return a.records[a.shown[i]], true
}

// selectedAnswer is the answer of the page that held the selected record.
func (a *auditView) selectedAnswer() (casefile.Answer, bool) {
	i, ok := a.table.Cursor()
	if !ok || i >= len(a.shown) || a.shown[i] >= len(a.answers) {
		return casefile.Answer{}, false
	}
	return a.answers[a.shown[i]], a.answers[a.shown[i]].SHA256 != ""
}

// pageAnswers are the answers of every page loaded, first page first.
func (a *auditView) pageAnswers() []casefile.Answer {
	var out []casefile.Answer
	for _, answer := range a.answers {
		if len(out) == 0 || out[len(out)-1] != answer {
			out = append(out, answer)
		}
	}
	return out
}

// View draws the timeline.
func (a *auditView) View() string {
	st := a.deps.Styles
	head := st.Title.Render("Audit trail") + "  " + st.Muted.Render("user ") + st.Value.Render(sanitize.Text(a.userID))
	count := fmt.Sprintf("%s of %s records loaded", ui.FormatCount(len(a.records)), ui.FormatCount(a.total))
	switch {
	case a.loading:
		count += " · loading… (esc stops)"
	case a.stopped && len(a.records) < a.total:
		count += " · stopped"
	case a.err != nil:
		count += " · " + apiclient.ErrorMessage(a.err)
	}
	order := "newest first"
	if a.oldestFirst {
		order = "oldest first"
	}
	filters := "filters: type " + orAll(a.typeFilter) + " · status " + orAll(a.statusFilter) + " · " + order
	lines := []string{head, st.Muted.Render(sanitize.Text(count) + " · " + filters), a.table.View(), a.detail()}
	return strings.Join(lines, "\n")
}

// orAll is a filter's value as the heading shows it: the gateway's text
// (a consent type, a status), cleaned, or "all".
func orAll(v string) string {
	if v == "" {
		return "all"
	}
	return sanitize.Text(v)
}

// detail is the selected record whole: ids, the change and who made it.
func (a *auditView) detail() string {
	r, ok := a.selected()
	if !ok {
		return ""
	}
	m := r.Metadata
	return screenkit.PairLines(a.deps.Styles, a.width,
		[]screenkit.Pair{{Label: "record", Value: r.AuditID}, {Label: "set", Value: r.ConsentSetID}},
		[]screenkit.Pair{{Label: "change", Value: r.Changes.After.ConsentType + ": " + change(r)}, {Label: "at", Value: screenkit.FormatTime(r.Timestamp)}},
		[]screenkit.Pair{{Label: "by", Value: orNone(m.ClientID)}, {Label: "from", Value: orNone(m.IPAddress)}},
		[]screenkit.Pair{{Label: "user agent", Value: orNone(m.UserAgent)}},
	)
}

func orNone(v string) string {
	if v == "" {
		return "not recorded"
	}
	return v
}
