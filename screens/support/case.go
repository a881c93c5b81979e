package support

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
	"cardterm/ui/table"
)

// columnsFor is the case table's columns: the consents in force of a
// user's sets, or an onboarding's sets. The time column's title names the
// zone once (screenkit.ZoneTitle), so its cells keep every minute in 16
// columns, at 80 columns too.
func columnsFor(kind caseKind) []table.Column {
	if kind == caseOnboarding {
		return []table.Column{
			{Title: "Set", Width: 13}, {Title: "Policy", Width: 8}, {Title: "User", Min: 16},
			{Title: "Status", Width: 11}, {Title: "Required", Width: 8}, {Title: screenkit.ZoneTitle("Created"), Width: 16},
		}
	}
	return []table.Column{
		{Title: "Set", Width: 13}, {Title: "Policy", Width: 8}, {Title: "Consent", Min: 16},
		{Title: "Status", Width: 9}, {Title: "Required", Width: 8}, {Title: screenkit.ZoneTitle("Updated"), Width: 16},
	}
}

// caseRow is what a row of the case table points at.
type caseRow struct {
	set     apiclient.ConsentSet
	consent apiclient.Consent // user cases only
}

// caseRowsOf lists the rows in table order.
func caseRowsOf(c *caseData) []caseRow {
	var out []caseRow
	for _, set := range c.sets {
		if c.kind == caseOnboarding {
			out = append(out, caseRow{set: set})
			continue
		}
		for _, consent := range apiclient.CurrentConsents(set) {
			out = append(out, caseRow{set: set, consent: consent})
		}
	}
	return out
}

func caseRows(c *caseData) [][]string {
	rows := caseRowsOf(c)
	out := make([][]string, len(rows))
	for i, r := range rows {
		if c.kind == caseOnboarding {
			user := "waiting to be linked"
			if r.set.Linked() {
				user = *r.set.UserID
			}
			out[i] = []string{r.set.ConsentSetID, r.set.PolicyType, user, apiclient.SetConsentStatus(r.set),
				strings.Join(apiclient.RequiredConsentTypes(r.set.PolicyType), ","), screenkit.FormatTableTime(r.set.CreatedAt)}
			continue
		}
		required := ""
		if apiclient.IsRequiredConsent(r.set.PolicyType, r.consent.ConsentType) {
			required = "required"
		}
		out[i] = []string{r.set.ConsentSetID, r.set.PolicyType, r.consent.ConsentType, r.consent.ConsentStatus,
			required, screenkit.FormatTableTime(r.consent.UpdatedAt)}
	}
	return out
}

// selected is the row under the cursor.
func (s *Screen) selected() (caseRow, bool) {
	if s.kase == nil {
		return caseRow{}, false
	}
	return screenkit.Selected(&s.sets, caseRowsOf(s.kase))
}

// missingRequired lists, per set, the required consents not granted there.
func missingRequired(sets []apiclient.ConsentSet) []string {
	var out []string
	for _, set := range sets {
		current := apiclient.CurrentConsents(set)
		for _, t := range apiclient.RequiredConsentTypes(set.PolicyType) {
			i := slices.IndexFunc(current, func(c apiclient.Consent) bool { return c.ConsentType == t })
			switch {
			case i < 0:
				out = append(out, t+" is missing from set "+set.ConsentSetID)
			case current[i].ConsentStatus != apiclient.ConsentGranted:
				out = append(out, t+" is "+current[i].ConsentStatus+" in set "+set.ConsentSetID)
			}
		}
	}
	return out
}

// statusBadge draws a case's answer: the aggregate status, or the 404 as
// its own answer.
func statusBadge(st *theme.Styles, c *caseData) string {
	if c.notFound {
		if c.kind == caseUser {
			return screenkit.Badge(st, "NO CONSENT SET (404)", theme.ToneWarn)
		}
		return screenkit.Badge(st, "NO CONSENT SETS (404)", theme.ToneWarn)
	}
	status := c.status.ConsentStatus
	if c.kind == caseOnboarding {
		waiting := 0
		for _, set := range c.sets {
			if !set.Linked() {
				waiting++
			}
		}
		return screenkit.Badge(st, fmt.Sprintf("%d SETS · %d WAITING", len(c.sets), waiting), theme.ToneInfo)
	}
	tone := theme.ToneNeutral
	switch status {
	case apiclient.ConsentComplete:
		tone = theme.ToneOK
	case apiclient.ConsentIncomplete:
		tone = theme.ToneDanger
	case apiclient.ConsentNone:
		tone = theme.ToneWarn
	}
	return screenkit.Badge(st, strings.ToUpper(status), tone)
}

// reachLine says what the tenant's credentials reach in the console and
// what needs the customer's approval.
func reachLine() string {
	return "The client key reads consent status, sets and audit trails; cards, wallets, transactions and the profile need the customer's approval (" +
		keymap.Key("support.approve") + " on a user)."
}

// ticketLabel is a case's ticket as the console shows it.
func ticketLabel(ticket string) string {
	if ticket == "" {
		return "none (" + keymap.Key("support.ticket") + " sets one)"
	}
	return ticket
}

// reachHeight is the lines reachLine takes at width.
func reachHeight(width int) int {
	return strings.Count(ansi.Wrap(reachLine(), max(width, 20), " "), "\n") + 1
}

// caseHeader is the lines above the case table.
func (s *Screen) caseHeader() []string {
	st, c := s.Deps.Styles, s.kase
	if c == nil {
		return nil
	}
	what := "User"
	if c.kind == caseOnboarding {
		what = "Onboarding"
	}
	head := st.Title.Render("Support console") + "  " + st.Muted.Render(what+" ") + st.Value.Render(sanitize.Text(c.id))
	where := st.Muted.Render("region ") + st.Value.Render(regionName(c.us)) + st.Muted.Render(" · ticket ") + st.Value.Render(sanitize.Text(ticketLabel(s.ticket)))
	lines := []string{head + st.Muted.Render(" · ") + where}
	if ansi.StringWidth(lines[0]) > s.Width {
		lines = []string{head, where} // narrow: the ticket stays in sight
	}
	if line := c.regionsLine(); line != "" {
		for _, l := range strings.Split(ansi.Wrap(line, max(s.Width, 20), " "), "\n") {
			lines = append(lines, st.Text(theme.ToneInfo).Render(l))
		}
	}
	if s.caseFile != nil {
		lines = append(lines, strings.Split(ansi.Wrap(s.caseFileLine(), max(s.Width, 20), " "), "\n")...)
	}
	if s.problem != "" {
		for _, line := range strings.Split(ansi.Wrap("✗ "+sanitize.Text(s.problem), max(s.Width, 20), " "), "\n") {
			lines = append(lines, st.Text(theme.ToneDanger).Render(line))
		}
	}
	lines = append(lines, s.searchedLines()...)
	switch {
	case s.loading && len(c.sets) == 0 && !c.notFound && c.err == nil:
		lines = append(lines, st.Muted.Render("Looking up…"))
		return lines
	case c.err != nil:
		lines = append(lines, st.Text(theme.ToneDanger).Render("The look-up failed: "+sanitize.Text(apiclient.ErrorMessage(c.err))), st.Muted.Render("r tries again"))
		return lines
	}
	lines = append(lines, "Consent "+statusBadge(st, c))
	other := "R looks the same id up in the " + regionName(!c.us) + " region."
	switch {
	case c.notFound && c.kind == caseUser && c.other != nil:
		lines = append(lines, st.Muted.Render("No consent set for this user in either region (404). Check the id: a mistyped id looks like this too."))
	case c.notFound && c.kind == caseUser:
		lines = append(lines, st.Muted.Render("No consent set for this user in the "+regionName(c.us)+" region (404). Check the id: a mistyped id looks like this too."),
			st.Text(theme.ToneInfo).Render(other))
	case c.notFound:
		lines = append(lines, st.Muted.Render("The gateway has no consent set for this onboarding id in the "+regionName(c.us)+" region (404)."),
			st.Text(theme.ToneInfo).Render(other))
	case c.kind == caseUser:
		for _, m := range missingRequired(c.sets) {
			lines = append(lines, st.Text(theme.ToneDanger).Render("✗ required consent "+sanitize.Text(m)))
		}
	default:
		for _, set := range c.sets {
			if !set.Linked() {
				lines = append(lines, st.Text(theme.ToneWarn).Render("● set "+sanitize.Text(set.ConsentSetID)+" is waiting to be linked to a user"))
			}
		}
	}
	return lines
}

func (s *Screen) caseHeaderHeight() int { return len(s.caseHeader()) + 1 }

// View implements ui.Screen.
func (s *Screen) View() string {
	var body string
	switch {
	case s.view == viewLookups:
		body = s.lookupsView()
	default:
		lines := s.caseHeader()
		body = strings.Join(lines, "\n") + "\n\n"
		if s.kase != nil && (len(s.kase.sets) > 0) {
			body += s.sets.View() + "\n" + s.selectedLine()
		}
	}
	return screenkit.Place(body, s.Width, s.Height)
}

// lookupsView is the console's first view: what it can see, and the
// recent look-ups (or the demo users).
func (s *Screen) lookupsView() string {
	st := s.Deps.Styles
	body := st.Title.Render("Support console") + "  " + st.Muted.Render("no customer sign-in: the tenant's client key only · region ") +
		st.Value.Render(regionName(s.us)) + "\n" + st.Muted.Render(ansi.Wrap(reachLine(), max(s.Width, 20), " ")) + "\n"
	if s.caseFile != nil {
		body += ui.FitLine(s.caseFileLine(), max(s.Width, 20)) + "\n"
	}
	if searched := s.searchedLines(); len(searched) > 0 {
		body += strings.Join(searched, "\n") + "\n"
	}
	body += "\n"
	switch {
	case len(s.recent) > 0:
		body += st.Subtitle.Render("Recent look-ups") + "\n" + s.lookups.View()
	case len(s.opts.DemoUsers) > 0:
		body += st.Subtitle.Render("Recent look-ups") + "  " + st.Muted.Render("none yet: the sandbox's demo users ("+s.keys.Open.Help().Key+" looks one up)") + "\n" + s.lookups.View()
	default:
		body += st.Subtitle.Render("Recent look-ups") + "\n" + st.Muted.Render("None yet: "+s.keys.User.Help().Key+" looks up a user id, "+s.keys.Onboarding.Help().Key+" an onboarding id.")
	}
	return body
}

// selectedLine shows the selected row's full ids, which the table may
// shorten.
func (s *Screen) selectedLine() string {
	r, ok := s.selected()
	if !ok {
		return ""
	}
	st := s.Deps.Styles
	line := st.Muted.Render("set ") + st.Value.Render(sanitize.Text(r.set.ConsentSetID))
	if r.consent.ConsentID != "" {
		line += "\n" + st.Muted.Render("consent ") + st.Value.Render(sanitize.Text(r.consent.ConsentID))
	}
	return line
}
