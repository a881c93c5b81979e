package support

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/domain/atomicfile"
	"cardterm/domain/casefile"
	"cardterm/screens/screenkit"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// The export of a case file (e or E while a case is open, e on the case
// panel): case-TICKET-TIME.md for the ticket and .json for tools, in the
// export folder. The case part comes from the case file as it is now;
// the consent part, when a customer's case is shown, is read again from
// the gateway (caseSource). Neither holds a secret or an e-mail: the case
// is scrubbed again (casefile.NewExport) and the consent part leaves IP
// addresses and user agents out unless E asked for them.

// caseFileExport is the JSON of a case file's export: the customer's
// consents as read for the export (the same members as an export without
// a case, when a customer's case is shown) and the case under "case".
type caseFileExport struct {
	*caseExport
	ExportedAt time.Time      `json:"exportedAt"`
	Case       *casefile.Case `json:"case"`
}

// exportCase exports the open case (from the case panel).
func (s *Screen) exportCase() tea.Cmd { return s.exportCaseWith(false) }

// caseFileSource is what building a case file's export needs, captured
// from the model before the command runs.
type caseFileSource struct {
	snapshot *casefile.Case
	path     string // the case file, whose merged state is exported
	gate     *writeGate
	agent    string
	now      time.Time
	consent  *caseSource // nil when no customer's case is shown
}

// builtExport is a case file's export, ready to write or copy.
type builtExport struct {
	name     string // the files' name without the time and extension
	markdown string
	json     []byte
}

func (s *Screen) caseFileSource(personal bool) caseFileSource {
	src := caseFileSource{snapshot: s.caseFile.Clone(), path: s.casePath, gate: s.gate, agent: s.agent(), now: s.Deps.Clock()}
	if s.kase != nil && s.kase.err == nil {
		cs := s.caseSource(personal)
		src.consent = &cs
	}
	return src
}

// build reads the customer's consents again (when a customer's case is
// shown) and builds the Markdown and JSON, scrubbed whole: the consent
// part and the action log's lines too, so a case export never carries an
// e-mail or a key.
func (src caseFileSource) build(ctx context.Context) (builtExport, error) {
	if src.path != "" {
		// What other agents wrote meanwhile is part of the case: write
		// this copy merged, and export the merged case.
		saveMu.Lock()
		if src.gate.closed {
			saveMu.Unlock()
			return builtExport{}, errEnding
		}
		written, err := src.snapshot.Write(src.path, src.agent, src.now)
		saveMu.Unlock()
		if err != nil {
			return builtExport{}, err
		}
		src.snapshot = written.Case
	}
	export := casefile.NewExport(src.snapshot, src.agent, src.now)
	out := caseFileExport{ExportedAt: export.ExportedAt, Case: export.Case}
	clean := func(t string) string { return strings.ReplaceAll(sanitize.Text(t), "|", `\|`) }
	when := func(t time.Time) string { return clean(screenkit.FormatTime(t.Format(time.RFC3339))) }
	b := builtExport{name: "case-" + fileSafe(src.snapshot.Ticket), markdown: export.Markdown(clean, sanitize.Multiline, when)}
	if src.consent != nil {
		e, err := src.consent.read(ctx)
		if err != nil {
			return builtExport{}, err
		}
		out.caseExport = &e
		b.markdown += "\n---\n\n" + e.markdown()
		b.name += "-" + string(e.Kind) + "-" + fileSafe(e.ID)
	}
	data, err := marshalExport(out)
	if err != nil {
		return builtExport{}, err
	}
	b.markdown, b.json = casefile.Scrub(b.markdown), []byte(casefile.Scrub(string(data)))
	return b, nil
}

func (s *Screen) exportCaseWith(personal bool) tea.Cmd {
	c := s.caseFile
	c.Did(casefile.Activity{Time: s.Deps.Clock().UTC(), Agent: s.agent(), Action: "case exported", Detail: "Markdown and JSON"})
	src := s.caseFileSource(personal)
	// The export is logged once written (gotExport).
	dir := s.opts.ExportDir
	_, cmd := ui.Go(s.Requests, func(ctx context.Context) (exported, error) {
		b, err := src.build(ctx)
		if err != nil {
			return exported{}, err
		}
		base := filepath.Join(dir, b.name+"-"+src.now.UTC().Format("20060102T150405Z"))
		files := exported{markdown: base + ".md", json: base + ".json"}
		// Under saveMu, each whole or not at all: quitting waits for them,
		// and none starts once it has begun.
		saveMu.Lock()
		defer saveMu.Unlock()
		if src.gate.closed {
			return exported{}, errEnding
		}
		if err := atomicfile.Write(files.markdown, atomicfile.Bytes([]byte(b.markdown))); err != nil {
			return exported{}, err
		}
		if err := atomicfile.Write(files.json, atomicfile.Bytes(b.json)); err != nil {
			return exported{}, err
		}
		return files, nil
	})
	return tea.Batch(s.saveCase(), cmd, notify("exporting case "+c.Ticket+"…"))
}

// copyCase puts the open case's Markdown on the clipboard (c).
func (s *Screen) copyCase() tea.Cmd {
	src := s.caseFileSource(false)
	_, cmd := ui.Go(s.Requests, func(ctx context.Context) (copied, error) {
		b, err := src.build(ctx)
		return copied{markdown: b.markdown}, err
	})
	return cmd
}

// follow opens the onboarding the selected set came from (on a user's
// case) or the user it is linked to (on an onboarding's), keeping the
// ticket and the case.
func (s *Screen) follow() tea.Cmd {
	r, ok := s.selected()
	if !ok {
		return notify("select a consent set first")
	}
	if s.kase.kind == caseUser {
		if r.set.OnboardingID == "" {
			return notify("the gateway did not say which onboarding this set came from")
		}
		return s.lookUp(caseOnboarding, r.set.OnboardingID, s.us, s.ticket)
	}
	if !r.set.Linked() {
		return notify("this set is waiting to be linked: there is no user to open yet")
	}
	return s.lookUp(caseUser, *r.set.UserID, s.us, s.ticket)
}

// errEnding refuses a write that would start while cardterm ends (Close
// has made the case's last write): it could be cut off half-way.
var errEnding = errors.New("cardterm is ending: nothing more is written")
