package casefile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Export is a case as handed over: the case, who exported it and when.
type Export struct {
	ExportedBy string    `json:"exportedBy"`
	ExportedAt time.Time `json:"exportedAt"`
	Case       *Case     `json:"case"`
}

// NewExport is the case scrubbed again (a case written by an older
// cardterm, or edited by hand, may hold what Scrub removes).
func NewExport(c *Case, agent string, at time.Time) Export {
	clean := *c
	clean.Lookups = slices.Clone(c.Lookups)
	for i := range clean.Lookups {
		clean.Lookups[i].Answer = Scrub(clean.Lookups[i].Answer)
	}
	clean.Notes = slices.Clone(c.Notes)
	for i := range clean.Notes {
		clean.Notes[i].Text = Scrub(clean.Notes[i].Text)
	}
	clean.Evidence = slices.Clone(c.Evidence)
	for i := range clean.Evidence {
		clean.Evidence[i].More = slices.Clone(c.Evidence[i].More)
		clean.Evidence[i].Title, clean.Evidence[i].Text = Scrub(clean.Evidence[i].Title), Scrub(clean.Evidence[i].Text)
	}
	clean.Activity = slices.Clone(c.Activity)
	for i := range clean.Activity {
		clean.Activity[i].Detail = Scrub(clean.Activity[i].Detail)
	}
	clean.Events = slices.Clone(c.Events)
	for i := range clean.Events {
		clean.Events[i].Text = Scrub(clean.Events[i].Text)
	}
	return Export{ExportedBy: agent, ExportedAt: at.UTC(), Case: &clean}
}

// JSON is the export for tools, indented.
func (e Export) JSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(e); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Markdown is the export for the ticket. clean makes gateway text safe
// for a line or a table cell, block for a block of lines (evidence, note
// lines); when formats a moment as the screens do.
func (e Export) Markdown(clean, block func(string) string, when func(time.Time) string) string {
	c := e.Case
	var b strings.Builder
	fmt.Fprintf(&b, "# Case %s\n\n", clean(c.Ticket))
	fmt.Fprintf(&b, "Opened %s; exported %s by %s. Agents: %s.\n", when(c.Created), when(e.ExportedAt), clean(e.ExportedBy), clean(strings.Join(c.Agents(), ", ")))
	b.WriteString("\n## Notes\n\n")
	if len(c.Notes) == 0 {
		b.WriteString("No note yet.\n")
	}
	for _, n := range c.Notes {
		head := "**" + when(n.Time) + "** · " + clean(n.Agent)
		if n.Draft != "" {
			head += " · reply drafted by runbook " + clean(n.Draft)
		}
		b.WriteString(head + "\n\n")
		for _, line := range strings.Split(block(n.Text), "\n") {
			b.WriteString("> " + line + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("## Evidence\n\n")
	if len(c.Evidence) == 0 {
		b.WriteString("No evidence kept yet.\n")
	}
	for i, it := range c.Evidence {
		fmt.Fprintf(&b, "### %d. %s\n\n", i+1, clean(it.Title))
		fmt.Fprintf(&b, "- Request: `%s %s` (%s region, %s)", clean(it.Request.Method), clean(it.Request.Path), clean(it.Request.Region), clean(it.Request.Via))
		if it.Request.Status != 0 {
			fmt.Fprintf(&b, ", answered %d", it.Request.Status)
		}
		fmt.Fprintf(&b, " at %s\n- SHA-256 of the answer: `%s`\n", when(it.AnsweredAt), clean(it.SHA256))
		for _, m := range it.More {
			fmt.Fprintf(&b, "- Also `%s %s` (%s region, %s) at %s, SHA-256 `%s`\n", clean(m.Request.Method), clean(m.Request.Path),
				clean(m.Request.Region), clean(m.Request.Via), when(m.AnsweredAt), clean(m.SHA256))
		}
		fmt.Fprintf(&b, "- Kept by %s at %s\n\n```\n%s\n```\n\n", clean(it.Agent), when(it.Time), strings.ReplaceAll(block(it.Text), "```", "'''"))
	}
	b.WriteString("## Look-ups\n\n")
	if len(c.Lookups) == 0 {
		b.WriteString("No look-up yet.\n")
	} else {
		b.WriteString("| Time | Agent | Kind | Id | Region | Answer |\n|---|---|---|---|---|---|\n")
		for _, l := range c.Lookups {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", when(l.Time), clean(l.Agent), clean(l.Kind), clean(l.ID), clean(l.Region), clean(l.Answer))
		}
	}
	b.WriteString("\n## What the agents did\n\n")
	if len(c.Activity) == 0 {
		b.WriteString("Nothing yet.\n")
	} else {
		b.WriteString("| Time | Agent | Action | Detail |\n|---|---|---|---|\n")
		for _, a := range c.Activity {
			fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", when(a.Time), clean(a.Agent), clean(a.Action), clean(a.Detail))
		}
	}
	b.WriteString("\nNo secret, token, card number or customer e-mail is kept in a case.\n")
	return b.String()
}

// Agents lists the agents who worked the case, first come first.
func (c *Case) Agents() []string {
	var out []string
	add := func(a string) {
		if a != "" && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	for _, l := range c.Lookups {
		add(l.Agent)
	}
	for _, a := range c.Activity {
		add(a.Agent)
	}
	return out
}
