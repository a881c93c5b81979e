package support

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
)

// caseExport is the JSON an exported case was built from: what the gateway
// answered (status, sets) and the audit records in view.
type caseExport struct {
	Kind          caseKind                `json:"kind"`
	ID            string                  `json:"id"`
	ExportedAt    string                  `json:"exportedAt"`
	NotFound      bool                    `json:"notFound,omitempty"`
	ConsentStatus string                  `json:"consentStatus,omitempty"`
	ConsentSets   []apiclient.ConsentSet  `json:"consentSets"`
	AuditRecords  []apiclient.AuditRecord `json:"auditRecords"`
	// Personal says whether IP addresses and user agents were kept.
	Personal bool `json:"ipAddressesAndUserAgents"`
}

// exported is where an export was written.
type exported struct{ markdown, json string }

// buildExport gathers the case; IP addresses and user agents are left out
// unless the agent asked for them.
func (s *Screen) buildExport(personal bool, now time.Time) caseExport {
	c := s.kase
	records := s.auditRecords
	if s.audit != nil {
		records = s.audit.visible()
	}
	out := caseExport{Kind: c.kind, ID: c.id, ExportedAt: now.UTC().Format(time.RFC3339), NotFound: c.notFound,
		ConsentStatus: c.status.ConsentStatus, Personal: personal,
		ConsentSets: make([]apiclient.ConsentSet, len(c.sets)), AuditRecords: make([]apiclient.AuditRecord, len(records))}
	for i, set := range c.sets {
		set.Consents = append([]apiclient.Consent(nil), set.Consents...)
		for j := range set.Consents {
			if m := set.Consents[j].Metadata; m != nil && !personal {
				cleared := *m
				cleared.IPAddress, cleared.UserAgent = "", ""
				set.Consents[j].Metadata = &cleared
			}
		}
		out.ConsentSets[i] = set
	}
	for i, r := range records {
		if !personal {
			r.Metadata.IPAddress, r.Metadata.UserAgent = "", ""
		}
		out.AuditRecords[i] = r
	}
	return out
}

// markdown is the case as a ticket comment. Gateway text is sanitized.
func (e caseExport) markdown(tenant string) string {
	clean := func(s string) string { return strings.ReplaceAll(ui.Sanitize(s), "|", `\|`) }
	var b strings.Builder
	fmt.Fprintf(&b, "# Consent case: %s %s\n\n", e.Kind, clean(e.ID))
	fmt.Fprintf(&b, "Exported %s with cardterm (tenant client key %s).\n\n", e.ExportedAt, clean(tenant))
	switch {
	case e.NotFound:
		fmt.Fprintf(&b, "**No consent set (404)**: the gateway has no consent set for this %s id.\n", e.Kind)
		return b.String()
	case e.Kind == caseUser:
		fmt.Fprintf(&b, "**Consent status: %s**\n\n", clean(e.ConsentStatus))
		for _, m := range missingRequired(e.ConsentSets) {
			fmt.Fprintf(&b, "- Missing required consent: %s\n", clean(m))
		}
	}
	b.WriteString("\n## Consent sets\n")
	for _, set := range e.ConsentSets {
		user := "waiting to be linked"
		if set.Linked() {
			user = "linked to " + clean(*set.UserID)
		}
		fmt.Fprintf(&b, "\n### %s\n\nPolicy %s, %s, created %s.\n\n| Consent | Status | Required | Updated |\n|---|---|---|---|\n",
			clean(set.ConsentSetID), clean(set.PolicyType), user, clean(set.CreatedAt))
		for _, c := range apiclient.CurrentConsents(set) {
			req := ""
			if apiclient.IsRequiredConsent(set.PolicyType, c.ConsentType) {
				req = "required"
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", clean(c.ConsentType), clean(c.ConsentStatus), req, clean(c.UpdatedAt))
		}
	}
	if len(e.AuditRecords) > 0 {
		fmt.Fprintf(&b, "\n## Audit trail (%d records in view)\n\n| Time | Action | Consent | Change | By |\n|---|---|---|---|---|\n", len(e.AuditRecords))
		for _, r := range e.AuditRecords {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", clean(r.Timestamp), clean(r.Action),
				clean(r.Changes.After.ConsentType), clean(change(r)), clean(madeBy(r.Metadata)))
		}
	}
	if !e.Personal {
		b.WriteString("\nIP addresses and user agents are left out.\n")
	}
	return b.String()
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

// export writes the Markdown summary and its JSON beside it, named after
// the id and the time, and says where.
func (s *Screen) export(personal bool) tea.Cmd {
	if s.kase == nil || s.kase.err != nil {
		return notify("nothing to export yet")
	}
	now := s.Deps.Clock()
	e := s.buildExport(personal, now)
	md := e.markdown(s.Deps.Client.Config().ClientKey)
	base := filepath.Join(s.opts.ExportDir, "case-"+string(e.Kind)+"-"+fileSafe(e.ID)+"-"+now.UTC().Format("20060102T150405Z"))
	_, cmd := ui.Go(s.Requests, func(context.Context) (exported, error) {
		data, err := marshalExport(e)
		if err != nil {
			return exported{}, err
		}
		out := exported{markdown: base + ".md", json: base + ".json"}
		if err := os.WriteFile(out.markdown, []byte(md), 0o600); err != nil {
			return exported{}, err
		}
		return out, os.WriteFile(out.json, data, 0o600)
	})
	return cmd
}

// marshalExport is the export's JSON, indented, with no raw control or
// bidi characters from the gateway.
func marshalExport(e caseExport) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return ui.EscapeInvisible(buf.Bytes()), nil
}

func (s *Screen) gotExport(msg ui.Result[exported]) tea.Cmd {
	if msg.Err != nil {
		return screenkit.Failed("export", msg.Err)
	}
	return ui.Notify(theme.ToneOK, "case written to "+msg.Value.markdown+" and "+filepath.Base(msg.Value.json))
}

// copyMarkdown puts the case on the clipboard instead of a file.
func (s *Screen) copyMarkdown() tea.Cmd {
	if s.kase == nil || s.kase.err != nil {
		return notify("nothing to copy yet")
	}
	md := s.buildExport(false, s.Deps.Clock()).markdown(s.Deps.Client.Config().ClientKey)
	return tea.Batch(tea.SetClipboard(md), ui.Notify(theme.ToneOK, "case copied as Markdown (without IP addresses and user agents)"))
}
