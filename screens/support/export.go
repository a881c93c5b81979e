package support

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/actionlog"
	"cardterm/domain/atomicfile"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// caseExport is what an exported case holds, read again from the gateway
// when the export was asked for: the consent answer, the sets, the whole
// audit trail as the gateway has it then, and the actions agents logged
// for this customer.
type caseExport struct {
	Kind   caseKind `json:"kind"`
	ID     string   `json:"id"`
	Region string   `json:"region"`
	Ticket string   `json:"ticket,omitempty"`
	Agent  string   `json:"exportedBy"`
	// ReadAt is when the gateway was read for this file.
	ReadAt        string                  `json:"readAt"`
	Tenant        string                  `json:"tenantClientKey"`
	NotFound      bool                    `json:"notFound,omitempty"`
	ConsentStatus string                  `json:"consentStatus,omitempty"`
	ConsentSets   []apiclient.ConsentSet  `json:"consentSets"`
	AuditTotal    int                     `json:"auditTotal"`
	AuditRecords  []apiclient.AuditRecord `json:"auditRecords"`
	Actions       []actionlog.Entry       `json:"actions"`
	// Personal says whether IP addresses and user agents were kept.
	Personal bool `json:"ipAddressesAndUserAgents"`
}

// exported is where an export was written.
type exported struct{ markdown, json string }

// copied is a case read again for the clipboard.
type copied struct{ markdown string }

// caseSource is what an export needs to read the case again, captured
// from the model before the command runs.
type caseSource struct {
	kind     caseKind
	id       string
	us       bool
	ticket   string
	agent    string
	tenant   string
	client   *apiclient.Client
	log      *actionlog.Log
	personal bool
	now      func() time.Time
}

func (s *Screen) caseSource(personal bool) caseSource {
	return caseSource{kind: s.kase.kind, id: s.kase.id, us: s.kase.us, ticket: s.ticket, agent: actionlog.Agent(s.opts.Agent),
		tenant: s.Deps.Client.Config().ClientKey, client: s.readClient(), log: s.log, personal: personal, now: s.Deps.Clock}
}

// read builds the export from a fresh read of the gateway: never from
// what the screen last showed, which may be stale or filtered.
func (src caseSource) read(ctx context.Context) (caseExport, error) {
	c := readCase(ctx, src.client, src.kind, src.id)
	if c.err != nil {
		return caseExport{}, c.err
	}
	e := caseExport{Kind: src.kind, ID: src.id, Region: regionName(src.us), Ticket: src.ticket, Agent: src.agent,
		Tenant: src.tenant, NotFound: c.notFound, ConsentStatus: c.status.ConsentStatus, ConsentSets: c.sets, Personal: src.personal}
	if src.kind == caseUser && !c.notFound {
		records, total, err := readAudit(ctx, src.client, src.id)
		if err != nil {
			return caseExport{}, fmt.Errorf("reading the audit trail: %w", err)
		}
		e.AuditRecords, e.AuditTotal = sortedRecords(records), total
	}
	e.ReadAt = src.now().UTC().Format(time.RFC3339)
	actions, err := src.log.Read(func(a actionlog.Entry) bool {
		// The changes and sessions, once each with their outcome: not the
		// line written before a request, nor look-ups and exports.
		if a.ClientKey != src.tenant || a.Outcome == actionlog.Requested ||
			a.Action == actionlog.ActionLookup || a.Action == actionlog.ActionExport {
			return false
		}
		if src.kind == caseUser {
			return a.UserID == src.id
		}
		return a.OnboardingID == src.id
	})
	if err != nil {
		return caseExport{}, err
	}
	e.Actions = actions
	if !src.personal {
		e.withoutPersonal()
	}
	return e, nil
}

// readAudit reads every page of a user's audit trail.
func readAudit(ctx context.Context, client *apiclient.Client, userID string) ([]apiclient.AuditRecord, int, error) {
	var records []apiclient.AuditRecord
	total := 0
	for offset := 0; ; {
		page, err := client.ConsentAudit(ctx, userID, apiclient.ConsentAuditMaxLimit, offset)
		if err != nil {
			return nil, 0, err
		}
		records = append(records, page.AuditRecords...)
		total = max(page.Pagination.Total, len(records))
		offset = page.Pagination.Offset + len(page.AuditRecords)
		if len(page.AuditRecords) == 0 || offset >= page.Pagination.Total {
			return records, total, nil
		}
	}
}

// withoutPersonal clears IP addresses and user agents everywhere.
func (e *caseExport) withoutPersonal() {
	sets := make([]apiclient.ConsentSet, len(e.ConsentSets))
	for i, set := range e.ConsentSets {
		set.Consents = append([]apiclient.Consent(nil), set.Consents...)
		for j := range set.Consents {
			if m := set.Consents[j].Metadata; m != nil {
				cleared := *m
				cleared.IPAddress, cleared.UserAgent = "", ""
				set.Consents[j].Metadata = &cleared
			}
		}
		sets[i] = set
	}
	e.ConsentSets = sets
	for i := range e.AuditRecords {
		e.AuditRecords[i].Metadata.IPAddress, e.AuditRecords[i].Metadata.UserAgent = "", ""
	}
}

// markdown is the case as a ticket comment: dates as the screen shows
// them, gateway text sanitized.
func (e caseExport) markdown() string {
	clean := func(s string) string { return strings.ReplaceAll(sanitize.Text(s), "|", `\|`) }
	when := func(ts string) string { return clean(screenkit.FormatTime(ts)) }
	var b strings.Builder
	fmt.Fprintf(&b, "# Consent case: %s %s\n\n", e.Kind, clean(e.ID))
	fmt.Fprintf(&b, "Read from the gateway at %s by %s (tenant client key %s, %s region)", when(e.ReadAt), clean(e.Agent), clean(e.Tenant), e.Region)
	if e.Ticket != "" {
		fmt.Fprintf(&b, ", ticket %s", clean(e.Ticket))
	}
	b.WriteString(".\n\n")
	switch {
	case e.NotFound:
		fmt.Fprintf(&b, "**No consent set (404)**: the gateway has no consent set for this %s id in the %s region.\n", e.Kind, e.Region)
	case e.Kind == caseUser:
		fmt.Fprintf(&b, "**Consent status: %s**\n", clean(e.ConsentStatus))
		if missing := missingRequired(e.ConsentSets); len(missing) > 0 {
			b.WriteString("\n")
			for _, m := range missing {
				fmt.Fprintf(&b, "- Missing required consent: %s\n", clean(m))
			}
		}
	}
	if !e.NotFound {
		e.writeSets(&b, clean, when)
		e.writeAudit(&b, clean, when)
	}
	e.writeActions(&b, clean, when)
	if !e.Personal {
		b.WriteString("\nIP addresses and user agents are left out.\n")
	}
	return b.String()
}

func (e caseExport) writeSets(b *strings.Builder, clean, when func(string) string) {
	b.WriteString("\n## Consent sets\n")
	for _, set := range e.ConsentSets {
		user := "waiting to be linked"
		if set.Linked() {
			user = "linked to " + clean(*set.UserID)
		}
		fmt.Fprintf(b, "\n### %s\n\nPolicy %s, %s, created %s.\n\n", clean(set.ConsentSetID), clean(set.PolicyType), user, when(set.CreatedAt))
		if e.Personal {
			b.WriteString("| Consent | Status | Required | Updated | From | User agent |\n|---|---|---|---|---|---|\n")
		} else {
			b.WriteString("| Consent | Status | Required | Updated |\n|---|---|---|---|\n")
		}
		for _, c := range apiclient.CurrentConsents(set) {
			req := ""
			if apiclient.IsRequiredConsent(set.PolicyType, c.ConsentType) {
				req = "required"
			}
			fmt.Fprintf(b, "| %s | %s | %s | %s |", clean(c.ConsentType), clean(c.ConsentStatus), req, when(c.UpdatedAt))
			if e.Personal {
				var m apiclient.ConsentMetadata
				if c.Metadata != nil {
					m = *c.Metadata
				}
				fmt.Fprintf(b, " %s | %s |", clean(orNone(m.IPAddress)), clean(orNone(m.UserAgent)))
			}
			b.WriteString("\n")
		}
	}
}

func (e caseExport) writeAudit(b *strings.Builder, clean, when func(string) string) {
	if e.Kind != caseUser {
		return
	}
	fmt.Fprintf(b, "\n## Audit trail (%d of %d records, newest first)\n\n", len(e.AuditRecords), e.AuditTotal)
	if e.Personal {
		b.WriteString("| Time | Action | Consent | Change | By | From | User agent |\n|---|---|---|---|---|---|---|\n")
	} else {
		b.WriteString("| Time | Action | Consent | Change | By |\n|---|---|---|---|---|\n")
	}
	for _, r := range e.AuditRecords {
		fmt.Fprintf(b, "| %s | %s | %s | %s | %s |", when(r.Timestamp), clean(r.Action),
			clean(r.Changes.After.ConsentType), clean(change(r)), clean(madeBy(r.Metadata)))
		if e.Personal {
			fmt.Fprintf(b, " %s | %s |", clean(orNone(r.Metadata.IPAddress)), clean(orNone(r.Metadata.UserAgent)))
		}
		b.WriteString("\n")
	}
}

func (e caseExport) writeActions(b *strings.Builder, clean, when func(string) string) {
	b.WriteString("\n## Actions in this case\n\n")
	if len(e.Actions) == 0 {
		b.WriteString("No action was taken from the support console for this " + string(e.Kind) + ".\n")
		return
	}
	b.WriteString("| Time | Agent | Ticket | Action | Request | Outcome |\n|---|---|---|---|---|---|\n")
	for _, a := range e.Actions {
		action := a.Action
		if a.Screen != "" {
			action += " (" + a.Screen + ")" // which of the customer's screens was viewed
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | `%s` | %s |\n", when(a.Time.Format(time.RFC3339)), clean(a.Agent), clean(orNone(a.Ticket)),
			clean(action), clean(a.Request), clean(a.Outcome))
	}
}

// fileSafe keeps the characters of an id a file name can carry.
func fileSafe(id string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, id)
}

// export reads the case again and writes the Markdown summary and its
// JSON beside it, named after the id and the time, and says where. With
// a case file open the export is the case's: its notes, evidence,
// look-ups and what the agents did, then the customer's consents as read
// now (caseexport.go).
func (s *Screen) export(personal bool) tea.Cmd {
	if s.caseFile != nil {
		return s.exportCaseWith(personal)
	}
	if s.kase == nil || s.kase.err != nil {
		return notify("nothing to export yet")
	}
	src := s.caseSource(personal)
	dir := s.opts.ExportDir
	_, cmd := ui.Go(s.Requests, func(ctx context.Context) (exported, error) {
		e, err := src.read(ctx)
		if err != nil {
			return exported{}, err
		}
		stamp := src.now().UTC().Format("20060102T150405Z")
		base := filepath.Join(dir, "case-"+string(e.Kind)+"-"+fileSafe(e.ID)+"-"+stamp)
		data, err := marshalExport(e)
		if err != nil {
			return exported{}, err
		}
		out := exported{markdown: base + ".md", json: base + ".json"}
		if err := atomicfile.Write(out.markdown, atomicfile.Bytes([]byte(e.markdown()))); err != nil {
			return exported{}, err
		}
		return out, atomicfile.Write(out.json, atomicfile.Bytes(data))
	})
	return tea.Batch(cmd, notify("reading the case again for the export…"))
}

// marshalExport is the export's JSON, indented, with no raw control or
// bidi characters from the gateway.
func marshalExport(e any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return sanitize.JSON(buf.Bytes()), nil
}

func (s *Screen) gotExport(msg ui.Result[exported]) tea.Cmd {
	if msg.Err != nil {
		return ui.ReportError("export", msg.Err)
	}
	return tea.Batch(ui.Notify(theme.ToneOK, "case written to "+msg.Value.markdown+" and "+filepath.Base(msg.Value.json)),
		s.logExport("ok: written to "+msg.Value.markdown+" and "+filepath.Base(msg.Value.json)))
}

// logExport writes an export (or a copy) of the ticket's case, else of
// the case shown, to the log.
func (s *Screen) logExport(outcome string) tea.Cmd {
	var request, userID string
	switch {
	case s.caseFile != nil:
		request = "export of case " + s.caseFile.Ticket
	case s.kase != nil:
		request = "export of the " + string(s.kase.kind) + " case " + s.kase.id
	default:
		return nil
	}
	if s.kase != nil && s.kase.kind == caseUser {
		userID = s.kase.id
	}
	return s.logAction(s.entry(actionlog.ActionExport, request, userID), outcome)
}

// copyMarkdown reads the case again and puts it on the clipboard instead
// of a file, without IP addresses and user agents; with a case file open,
// the case's Markdown (caseexport.go).
func (s *Screen) copyMarkdown() tea.Cmd {
	if s.caseFile != nil {
		return s.copyCase()
	}
	if s.kase == nil || s.kase.err != nil {
		return notify("nothing to copy yet")
	}
	src := s.caseSource(false)
	_, cmd := ui.Go(s.Requests, func(ctx context.Context) (copied, error) {
		e, err := src.read(ctx)
		return copied{markdown: e.markdown()}, err
	})
	return cmd
}

func (s *Screen) gotCopy(msg ui.Result[copied]) tea.Cmd {
	if msg.Err != nil {
		return ui.ReportError("copy", msg.Err)
	}
	return tea.Batch(tea.SetClipboard(msg.Value.markdown), ui.Notify(theme.ToneOK, "case copied as Markdown (without IP addresses and user agents)"),
		s.logExport("ok: copied to the clipboard as Markdown"))
}
