package support

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/actionlog"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/keymap"
)

// caseKind says what an id is.
type caseKind string

const (
	caseUser       caseKind = "user"
	caseOnboarding caseKind = "onboarding"
)

// lookupForm asks for a user id or an onboarding id.
func lookupForm(st *theme.Styles, kind caseKind, us bool) *form.Form {
	label, title := "User id", "Look up a customer by user id"
	if kind == caseOnboarding {
		label, title = "Onboarding id", "Look up the consent sets of an onboarding"
	}
	return form.New(st, form.Spec{
		Title:  title,
		Lines:  []string{"Needs only the client key: no customer sign-in. Region: " + regionName(us) + " (" + keymap.Key("support.region") + " switches it on the list)."},
		Submit: "look up",
		Fields: []form.Field{{Key: string(kind), Label: label, CharLimit: maxIDLength, Check: whereAnIDBelongs(kind)}},
	})
}

// ticketForm asks for the case's ticket label.
func ticketForm(st *theme.Styles, current string) *form.Form {
	return form.New(st, form.Spec{
		Title:  "Ticket for this case",
		Lines:  []string{"Logged with every action of the case and kept with the look-up."},
		Submit: "set",
		Fields: []form.Field{{Key: "ticket", Label: "Ticket", CharLimit: 64, Value: current}},
	})
}

// requiredTicketForm asks for the ticket a change or an approved session
// needs first (--require-ticket); the action goes on once it is set.
func requiredTicketForm(st *theme.Styles, kind actionKind) *form.Form {
	what := "A revoke or a link"
	if kind == actionApprove {
		what = "A customer-approved session"
	}
	return form.New(st, form.Spec{
		Title:  "A ticket is required first",
		Lines:  []string{what + " is logged under the case's ticket, and this console requires one (--require-ticket; on in production)."},
		Submit: "continue",
		Fields: []form.Field{{Key: "ticket", Label: "Ticket", CharLimit: 64, Check: nonEmpty("the ticket is required")}},
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
	// other is the other region's answer when the first region (firstUS)
	// had no consent set for a user id: both are said.
	other   *otherRegion
	firstUS bool
}

// lookUp starts a case from empty state and reads it in a command; the
// case shows while it loads.
func (s *Screen) lookUp(kind caseKind, id string, us bool, ticket string) tea.Cmd {
	id = strings.TrimSpace(id)
	end := s.endApproval("another case was opened", false)
	var open tea.Cmd
	switch {
	case s.caseFile != nil:
		ticket = s.caseFile.Ticket // the case's ticket goes on
	case ticket != "":
		open = s.openTicket(ticket) // a look-up kept under a ticket reopens its case
	}
	s.clearCase()
	s.setRegion(us)
	s.view, s.loading, s.ticket = viewCase, true, ticket
	s.kase = &caseData{kind: kind, id: id, us: us}
	s.sets.SetColumns(columnsFor(kind))
	s.SetSize(s.Width, s.Height)
	entry := s.lookupEntry()
	s.unlogged = &entry // logged with its answer (gotCase)
	return tea.Batch(end, open, s.read(), s.remember(recentLookup{Kind: kind, ID: id, US: us, Ticket: ticket}))
}

// lookupEntry is the action log's line of the look-up shown.
func (s *Screen) lookupEntry() actionlog.Entry {
	request := "GET /v2/consent/user/" + s.kase.id + "?includeSets=true"
	if s.kase.kind == caseOnboarding {
		request = "GET /v2/consent/onboarding/" + s.kase.id
	}
	userID := ""
	if s.kase.kind == caseUser {
		userID = s.kase.id
	}
	return s.entry(actionlog.ActionLookup, request, userID)
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
	client, other := s.readClientFor(us), s.readClientFor(!us)
	s.loading = true
	return ui.Start(s.Requests, &s.loadID, func(ctx context.Context) (*caseData, error) {
		c := readCase(ctx, client, kind, id)
		c.us, c.firstUS = us, us
		if kind != caseUser || !c.notFound {
			return c, nil
		}
		// Not in this region: the other one is asked at once, and the
		// case shows whichever has the customer, saying both.
		o := readCase(ctx, other, kind, id)
		answer := &otherRegion{us: !us, notFound: o.notFound, status: o.status.ConsentStatus, err: o.err}
		if o.err == nil && !o.notFound {
			o.us, o.firstUS, o.other = !us, us, answer
			return o, nil
		}
		c.other = answer
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
	if s.kase.other != nil {
		s.recordLookup(&caseData{kind: s.kase.kind, id: s.kase.id, us: s.kase.firstUS, notFound: true})
		if s.kase.us != s.us {
			s.setRegion(s.kase.us)
		}
		if s.kase.us != s.kase.firstUS {
			s.recordLookup(s.kase)
		} else {
			s.recordLookup(&caseData{kind: s.kase.kind, id: s.kase.id, us: s.kase.other.us, notFound: s.kase.other.notFound, err: s.kase.other.err})
		}
	} else {
		s.recordLookup(s.kase)
	}
	save := s.saveCase()
	s.sets.SetRows(caseRows(s.kase))
	s.SetSize(s.Width, s.Height)
	var logged tea.Cmd
	if s.unlogged != nil {
		logged = s.logAction(*s.unlogged, lookupOutcome(s.kase))
		s.unlogged = nil
	}
	if s.kase.err != nil {
		// Said here, on the console: a look-up never ends a session.
		return tea.Batch(save, logged, ui.ReportError("looking up "+string(s.kase.kind)+" "+s.kase.id, s.kase.err))
	}
	return tea.Batch(save, logged)
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
	if s.secretClient != nil {
		// The typed key belongs to the tenant, not the region.
		cfg := s.secretClient.Config()
		cfg.US = us
		s.secretClient = apiclient.New(cfg)
	}
}

// readClient is the client-key client of the console's region.
func (s *Screen) readClient() *apiclient.Client { return s.readClientFor(s.us) }

// readClientFor is the client-key client of a region, sending through
// the console's recorder so that evidence names its answers. It carries
// no secret key and no session: reads need the client key only.
func (s *Screen) readClientFor(us bool) *apiclient.Client {
	i := 0
	if us {
		i = 1
	}
	if s.readClients[i] == nil {
		cfg := s.Deps.Client.Config()
		cfg.US, cfg.SecretKey = us, ""
		cfg.HTTPClient = s.consentRec.Client()
		s.readClients[i] = apiclient.New(cfg)
	}
	return s.readClients[i]
}

func nonEmpty(message string) func(string) string {
	return func(v string) string {
		if strings.TrimSpace(v) == "" {
			return message
		}
		return ""
	}
}
