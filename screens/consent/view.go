package consent

import (
	"fmt"
	"strings"
	"time"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// Rendering of the consent screen's main view: the subject, its status
// badge and the table of the consents in force.

// cnsColumns lays out the consent table for a narrow (0), medium (1) or
// wide (2) body.
func cnsColumns(level int) []ui.Column {
	switch level {
	case 2:
		return []ui.Column{{Title: "Consent", Min: 14}, {Title: "Required", Width: 8}, {Title: "Status", Width: 9},
			{Title: "Updated", Width: 16}, {Title: "Set", Width: 10}, {Title: "Policy", Width: 6}, {Title: "Linked to", Min: 10}}
	case 1:
		return []ui.Column{{Title: "Consent", Min: 14}, {Title: "Req", Width: 3}, {Title: "Status", Width: 9},
			{Title: "Updated", Width: 16}, {Title: "Set", Width: 9}, {Title: "Policy", Width: 6}}
	}
	return []ui.Column{{Title: "Consent", Min: 12}, {Title: "Req", Width: 3}, {Title: "Status", Width: 9},
		{Title: "Updated", Width: 10}, {Title: "Set", Width: 9}}
}

// cnsLevel picks the table layout for a body width.
func cnsLevel(width int) int {
	switch {
	case width >= 100:
		return 2
	case width >= 72:
		return 1
	}
	return 0
}

func (c *Screen) rebuildRows() {
	c.rows = c.rows[:0]
	var cells [][]string
	for si, s := range c.sets {
		for _, k := range apiclient.CurrentConsents(s) {
			c.rows = append(c.rows, cnsRow{set: si, consent: k})
			cells = append(cells, cnsRowCells(s, k, c.level))
		}
	}
	c.table.SetRows(cells)
	c.layoutTable()
}

// cnsRowCells is one table row.
func cnsRowCells(s apiclient.ConsentSet, k apiclient.Consent, level int) []string {
	req := "optional"
	if apiclient.IsRequiredConsent(s.PolicyType, k.ConsentType) {
		req = "required"
	}
	short := ""
	if req == "required" {
		short = "*"
	}
	switch level {
	case 0:
		return []string{k.ConsentType, short, cnsStatusText(k.ConsentStatus), screenkit.DateOnly(k.UpdatedAt), s.ConsentSetID}
	case 1:
		return []string{k.ConsentType, short, cnsStatusText(k.ConsentStatus), cnsWhen(k.UpdatedAt), s.ConsentSetID, s.PolicyType}
	}
	linked := "unlinked"
	if s.Linked() {
		linked = *s.UserID
	}
	return []string{k.ConsentType, req, cnsStatusText(k.ConsentStatus), cnsWhen(k.UpdatedAt), s.ConsentSetID, s.PolicyType, linked}
}

// cnsStatusText marks a consent status so it reads without colour.
func cnsStatusText(s string) string {
	switch s {
	case apiclient.ConsentGranted:
		return "✓ " + s
	case apiclient.ConsentDenied:
		return "✗ " + s
	case apiclient.ConsentRevoked:
		return "⊘ " + s
	}
	return s
}

// cnsWhen shows a timestamp as local "2006-01-02 15:04", or as it came.
func cnsWhen(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ts
	}
	return t.Local().Format("2006-01-02 15:04")
}

// cnsStatusTone colours an aggregate or set status.
func cnsStatusTone(s string) theme.Tone {
	switch s {
	case apiclient.ConsentComplete:
		return theme.ToneOK
	case apiclient.ConsentIncomplete:
		return theme.ToneWarn
	}
	return theme.ToneNeutral
}

// SetSize implements ui.Screen: a layout change keeps the rows, the cursor
// and the quick filter, open or not (the old screen rebuilt its table in
// View and dropped the filter).
func (c *Screen) SetSize(width, height int) {
	c.width, c.height = width, height
	if level := cnsLevel(width); level != c.level {
		c.level = level
		cur, ok := c.table.Cursor()
		c.table.SetColumns(cnsColumns(level))
		c.rebuildRows()
		if ok {
			c.table.SetCursor(cur)
		}
	}
	c.layoutTable()
	c.audit.setSize(width, height)
}

// layoutTable gives the table what the header leaves; the header grows
// and shrinks with what was looked up, so data changes call it too.
func (c *Screen) layoutTable() {
	c.table.SetSize(c.width, max(c.height-len(c.header(c.width))-1, 3))
}

// View implements ui.Screen.
func (c *Screen) View() string {
	width, height := c.width, c.height
	switch {
	case c.prompt != nil:
		return screenkit.Place(c.prompt.view(width), width, height)
	case c.link != nil:
		return screenkit.Place(c.link.view(width), width, height)
	case c.create != nil:
		return screenkit.Place(c.create.view(width), width, height)
	case c.mode == cnsAudit:
		return c.audit.view(width, height, c.loading)
	case c.mode == cnsDetail:
		return c.detailView(width, height)
	}
	lines := c.header(width)
	lines = append(lines, "")
	return ui.FitBlock(strings.Join(lines, "\n")+"\n"+c.table.View(), width, height)
}

// header is the subject, its status badge and a line that explains it.
func (c *Screen) header(width int) []string {
	st := c.deps.Styles
	head := st.Title.Render("Consent")
	var sub string
	switch {
	case c.subject.onboardingID != "":
		head += "  " + st.Label.Render("onboarding ") + st.Value.Render(ui.Sanitize(c.subject.onboardingID))
		sub = c.summary
	case c.subject.userID != "":
		badge := screenkit.Badge(st, c.status, cnsStatusTone(c.status))
		if c.notFound {
			badge = screenkit.Badge(st, "NO CONSENT SET (404)", theme.ToneWarn)
		}
		head += "  " + badge + "  " + st.Label.Render("user ") + st.Value.Render(ui.Sanitize(c.subject.userID))
		if c.subject.userID == c.selfID {
			head += st.Muted.Render(" (you)")
		}
		sub = c.summary
	}
	if c.loading {
		head += "  " + st.Muted.Render("loading…")
	}
	lines := []string{ui.FitLine(head, width)}
	if c.loadErr != nil {
		lines = append(lines, st.Text(theme.ToneDanger).Render(ui.FitLine(ui.Sanitize("Could not load: "+apiclient.ErrorMessage(c.loadErr)), width)))
	} else if sub != "" {
		lines = append(lines, st.Muted.Render(ui.FitLine(ui.Sanitize(sub), width)))
	}
	return lines
}

// summarize says what was found and why the status is what it is; it is
// computed once per load, not per frame.
func (c *Screen) summarize() string {
	if c.notFound && c.subject.onboardingID != "" {
		return "No consent sets for this onboarding id (404). Check the id: a mistyped id answers the same."
	}
	if c.subject.onboardingID != "" {
		linked := 0
		for _, s := range c.sets {
			if s.Linked() {
				linked++
			}
		}
		return fmt.Sprintf("%d consent %s, %d linked to a user", len(c.sets), screenkit.Plural(len(c.sets), "set", "sets"), linked)
	}
	if c.notFound {
		return "No consent set for this user (404). Check the id: a mistyped id answers the same. b looks up an onboarding to link one."
	}
	switch c.status {
	case apiclient.ConsentNone:
		return "No consent set is linked to this user (status none). b looks up an onboarding to link one."
	case apiclient.ConsentComplete:
		return fmt.Sprintf("All required consents granted · %d consent %s", len(c.sets), screenkit.Plural(len(c.sets), "set", "sets"))
	case apiclient.ConsentIncomplete:
		var missing []string
		for _, t := range cnsRequiredOf(c.sets) {
			if cnsLatest(c.sets, t) != apiclient.ConsentGranted {
				missing = append(missing, t)
			}
		}
		return "Required consent missing, denied or revoked: " + strings.Join(missing, ", ")
	}
	return ""
}
