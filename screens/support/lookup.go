package support

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/support/actionlog"
	"cardterm/theme"
	"cardterm/ui"
)

// caseKind says what an id is.
type caseKind string

const (
	caseUser       caseKind = "user"
	caseOnboarding caseKind = "onboarding"
)

// lookupForm asks for a user id or an onboarding id.
func lookupForm(st *theme.Styles, kind caseKind, us bool) *ui.Form {
	label, title := "User id", "Look up a customer by user id"
	if kind == caseOnboarding {
		label, title = "Onboarding id", "Look up the consent sets of an onboarding"
	}
	return ui.NewForm(st, ui.FormSpec{
		Title:  title,
		Lines:  []string{"Needs only the client key: no customer sign-in. Region: " + regionName(us) + " (R switches it on the list)."},
		Submit: "look up",
		Fields: []ui.FieldSpec{{Key: string(kind), Label: label, CharLimit: 128, Check: nonEmpty("paste an id")}},
	})
}

// ticketForm asks for the case's ticket label.
func ticketForm(st *theme.Styles, current string) *ui.Form {
	return ui.NewForm(st, ui.FormSpec{
		Title:  "Ticket for this case",
		Lines:  []string{"Logged with every action of the case and kept with the look-up."},
		Submit: "set",
		Fields: []ui.FieldSpec{{Key: "ticket", Label: "Ticket", CharLimit: 64, Value: current}},
	})
}

// requiredTicketForm asks for the ticket a change or an approved session
// needs first (--require-ticket); the action goes on once it is set.
func requiredTicketForm(st *theme.Styles, kind actionKind) *ui.Form {
	what := "A revoke or a link"
	if kind == actionApprove {
		what = "A customer-approved session"
	}
	return ui.NewForm(st, ui.FormSpec{
		Title:  "A ticket is required first",
		Lines:  []string{what + " is logged under the case's ticket, and this console requires one (--require-ticket; on in production)."},
		Submit: "continue",
		Fields: []ui.FieldSpec{{Key: "ticket", Label: "Ticket", CharLimit: 64, Check: nonEmpty("the ticket is required")}},
	})
}

// caseData is one customer's case as the gateway answered it.
type caseData struct {
	kind caseKind
	id   string
	us   bool
	// status is the user's aggregate status (user look-ups).
	status apiclient.UserConsentStatus
	// notFound is the gateway's 404: no consent set for this id, which is
	// not the status "none".
	notFound bool
	sets     []apiclient.ConsentSet
	// raw is the gateway's answer as it came, for i.
	raw apiclient.RawJSON
	err error
}

// lookUp starts a case from empty state and reads it in a command; the
// case shows while it loads.
func (s *Screen) lookUp(kind caseKind, id string, us bool, ticket string) tea.Cmd {
	id = strings.TrimSpace(id)
	end := s.endApproval("another case was opened", false)
	s.clearCase()
	s.setRegion(us)
	s.view, s.loading, s.ticket = viewCase, true, ticket
	s.kase = &caseData{kind: kind, id: id, us: us}
	s.sets.SetColumns(columnsFor(kind))
	s.SetSize(s.Width, s.Height)
	request := "GET /v2/consent/user/" + id + "?includeSets=true"
	if kind == caseOnboarding {
		request = "GET /v2/consent/onboarding/" + id
	}
	userID := ""
	if kind == caseUser {
		userID = id
	}
	entry := s.entry(actionlog.ActionLookup, request, userID)
	s.unlogged = &entry // logged with its answer (gotCase)
	return tea.Batch(end, s.read(), s.remember(recentLookup{Kind: kind, ID: id, US: us, Ticket: ticket}))
}

// lookupOutcome is how the log says a look-up's answer: what was found,
// never the customer's data.
func lookupOutcome(c *caseData) string {
	switch {
	case c.err != nil:
		return "failed: " + apiclient.ErrorMessage(c.err)
	case c.notFound:
		return "ok: no consent set (404)"
	case c.kind == caseUser:
		return fmt.Sprintf("ok: consent status %s, %d set(s)", c.status.ConsentStatus, len(c.sets))
	}
	return fmt.Sprintf("ok: %d set(s)", len(c.sets))
}

// logAction appends a line that refuses nothing when it cannot be
// written (a look-up, an export): the agent is told, in a warning.
func (s *Screen) logAction(e actionlog.Entry, outcome string) tea.Cmd {
	log, now := s.log, s.Deps.Clock
	return func() tea.Msg {
		e.Time, e.Outcome = now().UTC(), outcome
		if err := log.Append(e); err != nil {
			return ui.Notify(theme.ToneWarn, e.Action+" not written to the action log: "+err.Error())()
		}
		return nil
	}
}

// read reads the case shown in a command.
func (s *Screen) read() tea.Cmd {
	kind, id, us := s.kase.kind, s.kase.id, s.kase.us
	client := s.readClient()
	s.loading = true
	return ui.Start(s.Requests, &s.loadID, func(ctx context.Context) (*caseData, error) {
		c := readCase(ctx, client, kind, id)
		c.us = us
		return c, nil
	})
}

// readCase reads a user's status with the sets, or an onboarding's sets.
func readCase(ctx context.Context, client *apiclient.Client, kind caseKind, id string) *caseData {
	c := &caseData{kind: kind, id: id}
	var err error
	if kind == caseUser {
		c.status, err = client.UserConsent(ctx, id, true)
		c.sets, c.raw = c.status.ConsentSets, c.status.Raw
	} else {
		var o apiclient.OnboardingConsentSets
		o, err = client.OnboardingConsents(ctx, id)
		c.sets, c.raw = o.ConsentSets, o.Raw
	}
	switch {
	case apiclient.IsNotFound(err):
		c.notFound = true
	case err != nil:
		c.err = err
	}
	return c
}

// reload reads the case shown again (after a change, or r).
func (s *Screen) reload() tea.Cmd {
	if s.kase == nil {
		return nil
	}
	return s.read()
}

func (s *Screen) gotCase(msg ui.Result[*caseData]) tea.Cmd {
	if msg.ID != s.loadID || msg.Value == nil || s.kase == nil || msg.Value.id != s.kase.id {
		return nil
	}
	s.loading = false
	s.kase = msg.Value
	s.sets.SetRows(caseRows(s.kase))
	s.SetSize(s.Width, s.Height)
	var logged tea.Cmd
	if s.unlogged != nil {
		logged = s.logAction(*s.unlogged, lookupOutcome(s.kase))
		s.unlogged = nil
	}
	if s.kase.err != nil {
		// Said here, on the console: a look-up never ends a session.
		return tea.Batch(logged, ui.ReportError("looking up "+string(s.kase.kind)+" "+s.kase.id, s.kase.err))
	}
	return logged
}

// regionName names a region as the console shows it.
func regionName(us bool) string {
	if us {
		return "US"
	}
	return "EU"
}

// setRegion points the console's look-ups at the US backend or not.
func (s *Screen) setRegion(us bool) {
	if us == s.us {
		return
	}
	s.us = us
	s.regionClient = nil
	if s.secretClient != nil {
		// The typed key belongs to the tenant, not the region.
		cfg := s.secretClient.Config()
		cfg.US = us
		s.secretClient = apiclient.New(cfg)
	}
	if s.Deps.Client.Config().US != us {
		cfg := s.Deps.Client.Config()
		cfg.US = us
		cfg.SecretKey = "" // reads need the client key only
		s.regionClient = apiclient.New(cfg)
	}
}

// readClient is the client-key client of the console's region.
func (s *Screen) readClient() *apiclient.Client {
	if s.regionClient != nil {
		return s.regionClient
	}
	return s.Deps.Client
}

func nonEmpty(message string) func(string) string {
	return func(v string) string {
		if strings.TrimSpace(v) == "" {
			return message
		}
		return ""
	}
}
