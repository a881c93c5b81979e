package support

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/domain/casefile"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// Evidence: ctrl+k keeps what the agent sees in the open case with the
// answer it was drawn from (the request, its region, when it came, the
// SHA-256 of the body). On the console it keeps the selected consent or
// audit record; in a customer-approved session (the root hands the
// screen over as ui.KeepEvidenceMsg) the selected record of the
// customer's screen, else the whole screen.

// customerScreenPaths are the requests a customer screen draws from,
// newest answer first (a switch: a package map is built before main on
// every start).
func customerScreenPaths(screen ui.ScreenID) []string {
	switch screen {
	case screenkit.AccountScreen:
		return []string{"/v1/user"}
	case screenkit.CardScreen:
		return []string{"/v1/card/status"}
	case screenkit.TransactionsScreen:
		return []string{"/v1/card/transactions"}
	case screenkit.WalletsScreen:
		return []string{"/v1/wallet/internal", "/v1/wallet/credit", "/v1/wallet/external", "/v1/wallet/history"}
	case screenkit.WhitelistScreen:
		return []string{"/v1/wallet/whitelist"}
	case screenkit.DelegationScreen:
		return []string{"/v1/delegation/"}
	case screenkit.OrdersScreen:
		return []string{"/v1/order/"}
	}
	return nil
}

// keepAudit keeps the selected audit record, else the trail as drawn.
func (s *Screen) keepAudit(audit *auditView) tea.Cmd {
	if s.kase == nil {
		return notify("nothing to keep yet")
	}
	if r, ok := audit.selected(); ok {
		answer, ok := audit.selectedAnswer()
		if !ok {
			return notify("the page of this record has no recorded answer")
		}
		return s.keep("audit record "+r.AuditID+" of user "+s.kase.id, string(withoutPersonalRecord([]byte(r.Raw))), answer)
	}
	pages := audit.pageAnswers()
	if len(pages) == 0 {
		return notify("the audit trail has not answered yet")
	}
	return s.keep("audit trail of user "+s.kase.id, ansi.Strip(audit.View()), pages[0], pages[1:]...)
}

// keepOnConsole keeps the selected consent row of the case, else the
// case as drawn.
func (s *Screen) keepOnConsole() tea.Cmd {
	if s.kase == nil {
		return notify("nothing to keep yet")
	}
	path := "/v2/consent/user/" + s.kase.id
	if s.kase.kind == caseOnboarding {
		path = "/v2/consent/onboarding/" + s.kase.id
	}
	answer, ok := s.consentRec.Latest(path)
	if !ok {
		return notify("the look-up has not answered yet")
	}
	if r, ok := s.selected(); ok {
		title := "consent set " + r.set.ConsentSetID
		if r.consent.ConsentID != "" {
			title = "consent " + r.consent.ConsentType + " (" + r.consent.ConsentStatus + ") in set " + r.set.ConsentSetID
		}
		row, _ := s.sets.Cursor()
		cells := caseRows(s.kase)
		text := ""
		if row < len(cells) {
			text = strings.Join(cells[row], " · ")
		}
		return s.keep(title, text, answer)
	}
	return s.keep(string(s.kase.kind)+" "+s.kase.id+" as shown", ansi.Strip(strings.Join(s.caseHeader(), "\n")), answer)
}

// withoutPersonalRecord drops the IP address and user agent members of a
// record's JSON text before it is kept.
func withoutPersonalRecord(raw []byte) []byte {
	lines := strings.Split(ui.InspectText(raw), "\n")
	out := lines[:0]
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if strings.HasPrefix(t, `"ipAddress"`) || strings.HasPrefix(t, `"userAgent"`) {
			continue
		}
		out = append(out, l)
	}
	return []byte(strings.Join(out, "\n"))
}

// keepFromSession keeps what a customer screen showed, from the approved
// session's answers.
func (s *Screen) keepFromSession(msg ui.KeepEvidenceMsg) tea.Cmd {
	a := s.approval
	if a == nil || !a.open {
		return ui.Notify(theme.ToneWarn, "no customer-approved session to keep evidence from")
	}
	answer, ok := a.rec.Latest(customerScreenPaths(msg.Screen)...)
	if !ok {
		if answer, ok = a.rec.Latest(); !ok {
			return notify("the " + msg.Title + " screen has not read anything yet")
		}
	}
	if msg.Screen == screenkit.AccountScreen && msg.Record != nil {
		return s.keepAccount(msg, answer)
	}
	if msg.Record != nil {
		return s.keep(msg.RecordTitle+" ("+msg.Title+" screen, approved session)", ui.InspectText(msg.Record), answer)
	}
	return s.keep(msg.Title+" screen (approved session)", strings.TrimRight(msg.View, " \n"), answer)
}

// caseFileLine says on the console which case is open.
func (s *Screen) caseFileLine() string {
	st := s.Deps.Styles
	if s.caseFile == nil {
		return st.Muted.Render("No case open: " + s.keys.Ticket.Help().Key + " sets a ticket and opens its case.")
	}
	return st.Muted.Render("Case ") + st.Value.Render(sanitize.Text(s.caseFile.Ticket)) + st.Muted.Render(" · "+caseCounts(s.caseFile)+" · "+s.keys.Panel.Help().Key+" opens it")
}

// keepAccount keeps the customer's profile: the name, date of birth,
// phone and address only when the agent chooses to (asked once per
// ctrl+k), masked otherwise.
func (s *Screen) keepAccount(msg ui.KeepEvidenceMsg, answer casefile.Answer) tea.Cmd {
	switch msg.Personal {
	case ui.PersonalNotAsked:
		if s.caseFile == nil {
			return s.keep("", "", answer) // says that no case is open
		}
		kept, masked := msg, msg
		kept.Personal, masked.Personal = ui.PersonalKept, ui.PersonalMasked
		return ui.Confirm(ui.ConfirmSpec{Title: "Keep the customer's personal data?",
			Lines: []string{"The profile goes into case " + s.caseFile.Ticket + ".",
				"y keeps the name, date of birth, phone and address as shown;",
				"n keeps the profile with them masked."},
			ConfirmLabel: "Keep unmasked", Tone: theme.ToneWarn, OnConfirm: kept, OnCancel: masked})
	case ui.PersonalKept:
		if s.caseFile != nil {
			s.caseFile.Did(casefile.Activity{Time: s.Deps.Clock().UTC(), Agent: s.agent(), Action: "personal data kept", Detail: "the customer's profile, unmasked, at the agent's choice"})
		}
		return s.keep(msg.RecordTitle+" ("+msg.Title+" screen, approved session; personal data kept at the agent's choice)", ui.InspectText(msg.Record), answer)
	}
	record, _ := casefile.MaskPersonal(msg.Record)
	return s.keep(msg.RecordTitle+" ("+msg.Title+" screen, approved session; personal data masked)", ui.InspectText(record), answer)
}
