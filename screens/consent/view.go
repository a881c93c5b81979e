package consent

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// The main view: the subject, its status badge, a line that explains it,
// and the table of the consents in force.

// columns lays out the consent table for a narrow (0), medium (1) or wide
// (2) body.
func columns(level int) []table.Column {
	switch level {
	case 2:
		return []table.Column{{Title: "Consent", Min: 14}, {Title: "Required", Width: 8}, {Title: "Status", Width: 9},
			{Title: screenkit.ZoneTitle("Updated"), Width: 16}, {Title: "Set", Width: 10}, {Title: "Policy", Width: 6}, {Title: "Linked to", Min: 10}}
	case 1:
		return []table.Column{{Title: "Consent", Min: 14}, {Title: "Req", Width: 3}, {Title: "Status", Width: 9},
			{Title: screenkit.ZoneTitle("Updated"), Width: 16}, {Title: "Set", Width: 9}, {Title: "Policy", Width: 6}}
	}
	return []table.Column{{Title: "Consent", Min: 12}, {Title: "Req", Width: 3}, {Title: "Status", Width: 9},
		{Title: "Updated", Width: 10}, {Title: "Set", Width: 9}}
}

func (s *Screen) rebuildRows() {
	s.rows = s.rows[:0]
	var cells [][]string
	for i, set := range s.sets {
		for _, k := range apiclient.CurrentConsents(set) {
			s.rows = append(s.rows, row{set: i, consent: k})
			cells = append(cells, rowCells(set, k, s.level))
		}
	}
	s.table.SetRows(cells)
	s.layoutTable()
}

// rowCells is one table row.
func rowCells(set apiclient.ConsentSet, k apiclient.Consent, level int) []string {
	required := requiredText(set.PolicyType, k.ConsentType)
	mark := ""
	if required == "required" {
		mark = "*"
	}
	switch level {
	case 0:
		return []string{k.ConsentType, mark, statusText(k.ConsentStatus), screenkit.DateOnly(k.UpdatedAt), set.ConsentSetID}
	case 1:
		return []string{k.ConsentType, mark, statusText(k.ConsentStatus), formatWhen(k.UpdatedAt), set.ConsentSetID, set.PolicyType}
	}
	linked := "unlinked"
	if set.Linked() {
		linked = *set.UserID
	}
	return []string{k.ConsentType, required, statusText(k.ConsentStatus), formatWhen(k.UpdatedAt), set.ConsentSetID, set.PolicyType, linked}
}

// SetSize implements ui.Screen: a layout change keeps the rows, the cursor
// and the quick filter, open or not (the old screen rebuilt its table in
// View and dropped the filter).
func (s *Screen) SetSize(width, height int) {
	s.Width, s.Height = width, height
	if level := screenkit.LayoutLevel(width, 72, 100); level != s.level {
		s.level = level
		screenkit.KeepCursor(&s.table, func() {
			s.table.SetColumns(columns(level))
			s.rebuildRows()
		})
	}
	s.layoutTable()
}

// layoutTable gives the table what the header leaves; the header grows
// and shrinks with what was looked up, so data changes call it too.
func (s *Screen) layoutTable() {
	s.table.SetSize(s.Width, max(s.Height-len(s.header(s.Width))-1, 3))
}

// View implements ui.Screen.
func (s *Screen) View() string {
	lines := append(s.header(s.Width), "")
	return ui.FitBlock(strings.Join(lines, "\n")+"\n"+s.table.View(), s.Width, s.Height)
}

// header is the subject, its status badge and a line that explains it.
func (s *Screen) header(width int) []string {
	st := s.Deps.Styles
	head := st.Title.Render("Consent")
	switch {
	case s.subject.onboardingID != "":
		head += "  " + st.Label.Render("onboarding ") + st.Value.Render(sanitize.Text(s.subject.onboardingID))
	case s.subject.userID != "":
		if !s.notFound {
			head += "  " + screenkit.Badge(st, s.status, aggregateTones.Of(s.status))
		}
		you := ""
		if s.subject.userID == s.selfID {
			you = st.Muted.Render(" (you)")
		}
		// The id is shortened in its middle on a narrow body, so "(you)"
		// and the id's both ends stay in sight.
		head += "  " + st.Label.Render("user ")
		room := width - lipgloss.Width(head) - lipgloss.Width(you)
		head += st.Value.Render(ui.Shorten(sanitize.Text(s.subject.userID), max(room, 12))) + you
	}
	if s.loading {
		head += "  " + st.Muted.Render("loading…")
	}
	lines := []string{ui.FitLine(head, width)}
	if s.loadErr != nil {
		lines = append(lines, st.Text(theme.ToneDanger).Render(ui.FitLine(sanitize.Text("Could not load: "+apiclient.ErrorMessage(s.loadErr)), width)))
	} else if s.summary != "" {
		lines = append(lines, st.Muted.Render(ui.FitLine(sanitize.Text(s.summary), width)))
	}
	return lines
}

// summarize says what was found and why the status is what it is; it is
// computed once per load, not per frame.
func (s *Screen) summarize() string {
	if s.subject.onboardingID != "" {
		linked := 0
		for _, set := range s.sets {
			if set.Linked() {
				linked++
			}
		}
		return fmt.Sprintf("%d consent %s, %d linked to a user", len(s.sets), screenkit.Plural(len(s.sets), "set", "sets"), linked)
	}
	if s.notFound {
		// The gateway's 404, told apart from a status "none" it might send.
		return "No consent set for this user (404). b looks up an onboarding to link one."
	}
	switch s.status {
	case apiclient.ConsentNone:
		return "No consent set is linked to this user (status none). b looks up an onboarding to link one."
	case apiclient.ConsentComplete:
		return fmt.Sprintf("All required consents granted · %d consent %s", len(s.sets), screenkit.Plural(len(s.sets), "set", "sets"))
	case apiclient.ConsentIncomplete:
		var missing []string
		for _, t := range requiredOf(s.sets) {
			if latestStatus(s.sets, t) != apiclient.ConsentGranted {
				missing = append(missing, t)
			}
		}
		return "Required consent missing, denied or revoked: " + strings.Join(missing, ", ")
	}
	return ""
}
