package consent

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// cnsAuditView is the audit trail of one user, a page (50 records) at a
// time; n and p follow the gateway's next and prev links.
type cnsAuditView struct {
	st      *theme.Styles
	userID  string
	offset  int
	page    apiclient.ConsentAuditPage
	table   ui.Table
	loadID  ui.RequestID
	loadErr error
	loaded  bool
	wide    bool
}

func newCnsAuditView(st *theme.Styles) cnsAuditView {
	return cnsAuditView{st: st, table: ui.NewTable(st, cnsAuditColumns(false))}
}

// cnsAuditColumns lays out the audit table; the set and IP address show
// when the body is wide enough.
func cnsAuditColumns(wide bool) []ui.Column {
	cols := []ui.Column{{Title: "When", Width: 16}, {Title: "Action", Width: 7}, {Title: "Consent", Min: 12}, {Title: "Change", Width: 17}}
	if wide {
		cols = append(cols, ui.Column{Title: "Set", Width: 9}, ui.Column{Title: "IP address", Width: 15})
	}
	return cols
}

// setRows fills the table from the page.
func (a *cnsAuditView) setRows() {
	rows := make([][]string, len(a.page.AuditRecords))
	for i, r := range a.page.AuditRecords {
		change := r.Changes.After.ConsentStatus
		if b := r.Changes.Before; b != nil {
			if _, ok := r.Changes.After.Extra["userId"]; ok {
				change = "linked: " + change
			} else {
				change = b.ConsentStatus + " → " + change
			}
		} else {
			change = "new: " + change
		}
		rows[i] = []string{cnsWhen(r.Timestamp), r.Action, r.Changes.After.ConsentType, change}
		if a.wide {
			rows[i] = append(rows[i], r.ConsentSetID, r.Metadata.IPAddress)
		}
	}
	a.table.SetRows(rows)
}

// selected is the record under the cursor.
func (a *cnsAuditView) selected() (apiclient.AuditRecord, bool) {
	if i, ok := a.table.Cursor(); ok && i < len(a.page.AuditRecords) {
		return a.page.AuditRecords[i], true
	}
	return apiclient.AuditRecord{}, false
}

// openAudit shows the audit trail of the subject user, or of the selected
// set's user when an onboarding was looked up.
func (c *Screen) openAudit() tea.Cmd {
	uid := c.subject.userID
	if c.subject.onboardingID != "" || c.mode == cnsDetail {
		s, ok := c.selectedSet()
		switch {
		case !ok:
			return ui.Notify(theme.ToneInfo, "no consent set selected")
		case !s.Linked():
			return ui.Notify(theme.ToneInfo, "this set is not linked to a user yet: the audit trail is kept per user (L links it)")
		}
		uid = *s.UserID
	}
	if uid == "" {
		return ui.Notify(theme.ToneInfo, "look up a user first (u)")
	}
	if (c.notFound || c.status == apiclient.ConsentNone) && uid == c.subject.userID {
		return ui.Notify(theme.ToneInfo, "this user has no consent set, so no audit trail")
	}
	c.mode = cnsAudit
	if c.audit.userID != uid {
		c.audit = newCnsAuditView(c.deps.Styles)
		c.audit.userID = uid
		c.audit.setSize(c.width, c.height)
	}
	return c.loadAudit(0)
}

// loadAudit reads the page at offset.
func (c *Screen) loadAudit(offset int) tea.Cmd {
	client, uid := c.deps.Client, c.audit.userID
	c.loading = true
	var cmd tea.Cmd
	c.audit.loadID, cmd = ui.Go(c.requests, func(ctx context.Context) (apiclient.ConsentAuditPage, error) {
		return client.ConsentAudit(ctx, uid, apiclient.ConsentAuditPageLimit, offset)
	})
	return cmd
}

func (c *Screen) auditLoaded(msg ui.Result[apiclient.ConsentAuditPage]) tea.Cmd {
	a := &c.audit
	if msg.ID != a.loadID {
		return nil
	}
	c.loading = false
	a.loadErr = msg.Err
	if msg.Err != nil {
		return screenkit.Failed("reading the audit trail", msg.Err)
	}
	a.page, a.loaded = msg.Value, true
	a.offset = msg.Value.Pagination.Offset
	a.setRows()
	return nil
}

// auditKey handles keys in the audit view.
func (c *Screen) auditKey(msg tea.KeyPressMsg) tea.Cmd {
	a := &c.audit
	if a.table.Filtering() {
		var cmd tea.Cmd
		a.table, cmd = a.table.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, c.keys.Back):
		c.mode = cnsMain
		return nil
	case key.Matches(msg, c.keys.Next):
		if a.page.Links["next"] == nil {
			return ui.Notify(theme.ToneInfo, "this is the last page")
		}
		return c.loadAudit(a.offset + a.pageLimit())
	case key.Matches(msg, c.keys.Prev):
		if a.page.Links["prev"] == nil {
			return ui.Notify(theme.ToneInfo, "this is the first page")
		}
		return c.loadAudit(max(a.offset-a.pageLimit(), 0))
	}
	var cmd tea.Cmd
	a.table, cmd = a.table.Update(msg)
	return cmd
}

func (a *cnsAuditView) pageLimit() int {
	if a.page.Pagination.Limit > 0 {
		return a.page.Pagination.Limit
	}
	return apiclient.ConsentAuditPageLimit
}

// rangeText is "records 51–100 of 123".
func (a *cnsAuditView) rangeText() string {
	p := a.page.Pagination
	n := len(a.page.AuditRecords)
	if n == 0 {
		return fmt.Sprintf("no records at offset %d of %s", p.Offset, ui.FormatCount(p.Total))
	}
	return fmt.Sprintf("records %s–%s of %s", ui.FormatCount(p.Offset+1), ui.FormatCount(p.Offset+n), ui.FormatCount(p.Total))
}

// setSize lays the audit table out: the wide columns from 90 cells, rows
// and cursor kept; the header takes 3 lines and the metadata 2.
func (a *cnsAuditView) setSize(width, height int) {
	if wide := width >= 90; wide != a.wide {
		cur, ok := a.table.Cursor()
		a.wide = wide
		a.table.SetColumns(cnsAuditColumns(wide))
		a.setRows()
		if ok {
			a.table.SetCursor(cur)
		}
	}
	a.table.SetSize(width, max(height-5, 3))
}

// view draws the page, and below it the selected record's metadata.
func (a *cnsAuditView) view(width, height int, loading bool) string {
	st := a.st
	head := st.Title.Render("Audit trail") + "  " + st.Label.Render("user ") + st.Value.Render(ui.Sanitize(a.userID))
	if loading {
		head += "  " + st.Muted.Render("loading…")
	}
	lines := []string{ui.FitLine(head, width)}
	switch {
	case a.loadErr != nil:
		lines = append(lines, st.Text(theme.ToneDanger).Render(ui.FitLine(ui.Sanitize("Could not read the audit trail: "+apiclient.ErrorMessage(a.loadErr)), width)),
			st.Muted.Render("r retries · esc goes back"))
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	case !a.loaded:
		return screenkit.Place(strings.Join(lines, "\n"), width, height)
	}
	nav := []string{}
	if a.page.Links["prev"] != nil {
		nav = append(nav, "p previous")
	}
	if a.page.Links["next"] != nil {
		nav = append(nav, "n next")
	}
	pager := a.rangeText()
	if len(nav) > 0 {
		pager += " · " + strings.Join(nav, " · ")
	}
	lines = append(lines, st.Muted.Render(ui.FitLine(pager, width)), "")
	var foot []string
	if r, ok := a.selected(); ok {
		m := r.Metadata
		foot = []string{
			ui.FitLine(st.Label.Render("user agent ")+st.Value.Render(ui.Sanitize(m.UserAgent)), width),
			ui.FitLine(st.Label.Render("client ")+st.Value.Render(ui.Sanitize(orText(m.ClientID, "—")))+
				st.Label.Render("  recorded ")+st.Value.Render(ui.Sanitize(m.Timestamp))+
				st.Label.Render("  audit id ")+st.Value.Render(ui.Sanitize(r.AuditID)), width),
		}
	}
	body := strings.Join(lines, "\n") + "\n" + a.table.View()
	if len(foot) > 0 {
		body += "\n" + strings.Join(foot, "\n")
	}
	return ui.FitBlock(body, width, height)
}

// orText is s, or def when s is empty.
func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
