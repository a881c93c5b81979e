package consent

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// auditView is the audit trail of one user, a layer over the screen: a page (50
// records) at a time, n and p following the gateway's next and prev links,
// and under the table the selected record's metadata.
type auditView struct {
	panel
	st       *theme.Styles
	client   *apiclient.Client
	requests ui.Owner
	keys     auditKeys
	userID   string

	offset  int
	page    apiclient.ConsentAuditPage
	table   table.Table
	loadID  ui.RequestID
	loading bool
	loadErr error
	loaded  bool

	wide bool // the set and IP address columns show
}

func newAuditView(s *Screen, userID string) *auditView {
	deps := s.Deps
	v := &auditView{panel: s.newPanel(), st: deps.Styles, client: deps.Client, requests: s.Requests, userID: userID,
		table: table.New(deps.Styles, auditColumns(false))}
	v.keys = newAuditKeys(v.table.KeyMap())
	return v
}

// auditColumns lays out the audit table; the set and IP address show
// when the body is wide enough.
func auditColumns(wide bool) []table.Column {
	cols := []table.Column{{Title: screenkit.ZoneTitle("When"), Width: 16}, {Title: "Action", Width: 7}, {Title: "Consent", Min: 12}, {Title: "Change", Width: 17}}
	if wide {
		cols = append(cols, table.Column{Title: "Set", Width: 9}, table.Column{Title: "IP address", Width: 15})
	}
	return cols
}

// openAudit shows the audit trail of the subject user, or of the selected
// set's user when an onboarding was looked up.
func (s *Screen) openAudit() tea.Cmd {
	if s.subject.onboardingID != "" {
		set, ok := s.selectedSet()
		return s.openAuditOf(set, ok)
	}
	return s.openAuditFor(s.subject.userID)
}

// openAuditOf shows the audit trail of set's user (ok false: no set).
func (s *Screen) openAuditOf(set apiclient.ConsentSet, ok bool) tea.Cmd {
	switch {
	case !ok:
		return ui.Notify(theme.ToneInfo, "no consent set selected")
	case !set.Linked():
		return ui.Notify(theme.ToneInfo, "this set is not linked to a user yet: the audit trail is kept per user (L links it)")
	}
	return s.openAuditFor(*set.UserID)
}

// openAuditFor shows userID's audit trail.
func (s *Screen) openAuditFor(userID string) tea.Cmd {
	if userID == "" {
		return ui.Notify(theme.ToneInfo, "look up a user first ("+s.keys.User.Help().Key+")")
	}
	if s.notFound && userID == s.subject.userID {
		return ui.Notify(theme.ToneInfo, "this user has no consent set, so no audit trail")
	}
	audit := newAuditView(s, userID)
	return ui.OpenLayer(audit, audit.load(0))
}

// load reads the page at offset.
func (v *auditView) load(offset int) tea.Cmd {
	client, userID := v.client, v.userID
	v.loading = true
	return ui.Start(v.requests, &v.loadID, func(ctx context.Context) (apiclient.ConsentAuditPage, error) {
		return client.ConsentAudit(ctx, userID, apiclient.ConsentAuditPageLimit, offset)
	})
}

// reload reads the page shown again (r).
func (v *auditView) reload() tea.Cmd { return v.load(v.offset) }

// Update implements layer.Layer: pages arrive, n and p page, r reads
// the page again, esc closes, a click selects a record, other keys move
// in or filter the table.
func (v *auditView) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case ui.Result[apiclient.ConsentAuditPage]:
		return v.pageLoaded(msg)
	case ui.RefreshMsg:
		return v.reload()
	case ui.BodyMouseMsg:
		if top, ok := screenkit.LinesAbove(v.View(), v.table.View()); ok && v.loaded {
			screenkit.ClickTable(&v.table, top, msg)
		}
	case tea.KeyPressMsg:
		return v.key(msg)
	}
	return nil
}

func (v *auditView) key(msg tea.KeyPressMsg) tea.Cmd {
	if !v.table.Filtering() {
		switch {
		case key.Matches(msg, v.keys.Back):
			v.closed = true
			return nil
		case key.Matches(msg, v.keys.Next):
			if v.page.Links["next"] == nil {
				return ui.Notify(theme.ToneInfo, "this is the last page")
			}
			return v.load(v.offset + v.pageLimit())
		case key.Matches(msg, v.keys.Prev):
			if v.page.Links["prev"] == nil {
				return ui.Notify(theme.ToneInfo, "this is the first page")
			}
			return v.load(max(v.offset-v.pageLimit(), 0))
		}
	}
	var cmd tea.Cmd
	v.table, cmd = v.table.Update(msg)
	return cmd
}

func (v *auditView) pageLoaded(msg ui.Result[apiclient.ConsentAuditPage]) tea.Cmd {
	if msg.ID != v.loadID {
		return nil
	}
	v.loading, v.loadErr = false, msg.Err
	if msg.Err != nil {
		return screenkit.Failed("reading the audit trail", msg.Err)
	}
	v.page, v.loaded = msg.Value, true
	v.offset = msg.Value.Pagination.Offset
	v.setRows()
	return nil
}

// setRows fills the table from the page.
func (v *auditView) setRows() {
	rows := make([][]string, len(v.page.AuditRecords))
	for i, r := range v.page.AuditRecords {
		change := r.Changes.After.ConsentStatus
		if before := r.Changes.Before; before != nil {
			if _, ok := r.Changes.After.Extra["userId"]; ok {
				change = "linked: " + change
			} else {
				change = before.ConsentStatus + " → " + change
			}
		} else {
			change = "new: " + change
		}
		rows[i] = []string{formatWhen(r.Timestamp), r.Action, r.Changes.After.ConsentType, change}
		if v.wide {
			rows[i] = append(rows[i], r.ConsentSetID, r.Metadata.IPAddress)
		}
	}
	v.table.SetRows(rows)
}

// selected is the record under the cursor.
func (v *auditView) selected() (apiclient.AuditRecord, bool) {
	return screenkit.Selected(&v.table, v.page.AuditRecords)
}

func (v *auditView) pageLimit() int {
	if v.page.Pagination.Limit > 0 {
		return v.page.Pagination.Limit
	}
	return apiclient.ConsentAuditPageLimit
}

// rangeText is "records 51–100 of 123".
func (v *auditView) rangeText() string {
	p := v.page.Pagination
	n := len(v.page.AuditRecords)
	if n == 0 {
		return fmt.Sprintf("no records at offset %d of %s", p.Offset, ui.FormatCount(p.Total))
	}
	return fmt.Sprintf("records %s–%s of %s", ui.FormatCount(p.Offset+1), ui.FormatCount(p.Offset+n), ui.FormatCount(p.Total))
}

// SetSize implements layer.Layer: the wide columns from 90 cells, rows
// and cursor kept; the header takes 3 lines and the metadata 2.
func (v *auditView) SetSize(width, height int) {
	v.panel.SetSize(width, height)
	if wide := width >= 90; wide != v.wide {
		v.wide = wide
		screenkit.KeepCursor(&v.table, func() {
			v.table.SetColumns(auditColumns(wide))
			v.setRows()
		})
	}
	v.table.SetSize(width, max(height-5, 3))
}

// KeyMap implements layer.Layer.
func (v *auditView) KeyMap() help.KeyMap { return v.keys }

// CapturesKeys implements layer.Typist: the table's filter takes every
// key.
func (v *auditView) CapturesKeys() bool { return v.table.Filtering() }

// CopyValue implements ui.Copier: the selected record's audit id.
func (v *auditView) CopyValue() (label, value string, ok bool) {
	if r, ok := v.selected(); ok {
		return "audit id", r.AuditID, true
	}
	return "", "", false
}

// View implements layer.Layer: the page, and below it the selected
// record's metadata.
func (v *auditView) View() string { return ui.FitBlock(v.draw(), v.width, v.height) }

// draw draws the page and the selected record's metadata.
func (v *auditView) draw() string {
	st, width := v.st, v.width
	head := st.Title.Render("Audit trail") + "  " + st.Label.Render("user ") + st.Value.Render(sanitize.Text(v.userID))
	if v.loading {
		head += "  " + st.Muted.Render("loading…")
	}
	lines := []string{ui.FitLine(head, width)}
	switch {
	case v.loadErr != nil:
		return strings.Join(append(lines,
			st.Text(theme.ToneDanger).Render(ui.FitLine(sanitize.Text("Could not read the audit trail: "+apiclient.ErrorMessage(v.loadErr)), width)),
			st.Muted.Render(keymap.Key("global.refresh")+" retries · "+v.keys.Back.Help().Key+" goes back")), "\n")
	case !v.loaded:
		return lines[0]
	}
	var nav []string
	if v.page.Links["prev"] != nil {
		nav = append(nav, "p previous")
	}
	if v.page.Links["next"] != nil {
		nav = append(nav, "n next")
	}
	pager := v.rangeText()
	if len(nav) > 0 {
		pager += " · " + strings.Join(nav, " · ")
	}
	lines = append(lines, st.Muted.Render(ui.FitLine(pager, width)), "", v.table.View())
	if r, ok := v.selected(); ok {
		m := r.Metadata
		// The audit id comes last and, short of room, loses its middle.
		record := st.Label.Render("client ") + st.Value.Render(sanitize.Text(orText(m.ClientID, "—"))) +
			st.Label.Render("  recorded ") + st.Value.Render(sanitize.Text(screenkit.FormatTime(m.Timestamp))) + st.Label.Render("  audit id ")
		room := max(width-ansi.StringWidth(record), 0)
		lines = append(lines,
			ui.FitLine(st.Label.Render("user agent ")+st.Value.Render(sanitize.Text(m.UserAgent)), width),
			ui.FitLine(record+st.Value.Render(ui.Shorten(sanitize.Text(r.AuditID), room)), width))
	}
	return strings.Join(lines, "\n")
}

// orText is s, or def when s is empty.
func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
