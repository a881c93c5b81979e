package support

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/actionlog"
	"cardterm/domain/casefile"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// The case file: a ticket's case kept on disk (casefile). Setting a
// ticket (T) opens its case, a new one or the one kept under that ticket
// already; `cardterm support --case FILE` opens a file and goes on with
// its last look-up. While a case is open every look-up, note, piece of
// evidence, runbook run and export is added to it and the file is
// written again, so a second agent can open it and go on. The ticket and
// the case stay when the agent moves from one look-up to the next (a
// user, then the onboarding its consent set came from).

// openedCase is a case file read from disk.
type openedCase struct {
	path string
	kase *casefile.Case
	// created says the file did not exist: a new case.
	created bool
}

// caseSaved is the answer of a write of the case file: the case as it is
// on disk now, with what other agents added since.
type caseSaved struct {
	path    string
	written casefile.Written
}

// saveMu serializes this process's writes of case files (and export
// files), so that quitting can wait for the one in flight.
var saveMu sync.Mutex

// writeGate is a console's writes, under saveMu: savedSeq keeps a late
// write of an older state from being made after a newer one, and closed
// (when the console ends) lets no write start after the last one Close
// makes.
type writeGate struct {
	closed   bool
	savedSeq map[string]int
}

// agent is who works the case, as the action log names them.
func (s *Screen) agent() string { return actionlog.Agent(s.opts.Agent) }

// casePathFor is the file of a ticket's case in the cases folder.
func (s *Screen) casePathFor(ticket string) string {
	return casefile.PathFor(s.opts.CasesDir, ticket)
}

// openTicket makes ticket the case's ticket and opens its case file (read
// in a command); "" closes the case file and keeps nothing more.
func (s *Screen) openTicket(ticket string) tea.Cmd {
	ticket = strings.TrimSpace(ticket)
	s.ticket = ticket
	if ticket == "" {
		s.caseFile, s.casePath = nil, ""
		return notify("no ticket: nothing more is kept in a case")
	}
	if (s.caseFile != nil && s.caseFile.Ticket == ticket) || s.opts.CasesDir == "" {
		return nil // no cases folder: the ticket is the look-up's label only
	}
	return s.loadCase(s.casePathFor(ticket), ticket)
}

// loadCase reads a case file in a command; ticket names a new case when
// the file does not exist ("" when it must exist: --case).
func (s *Screen) loadCase(path, ticket string) tea.Cmd {
	tenant, now := s.Deps.Client.Config().ClientKey, s.Deps.Clock()
	_, cmd := ui.Go(s.Requests, func(context.Context) (openedCase, error) {
		c, err := casefile.Load(path)
		switch {
		case err == nil:
			return openedCase{path: path, kase: c}, nil
		case ticket != "" && errors.Is(err, os.ErrNotExist):
			return openedCase{path: path, kase: casefile.New(ticket, tenant, now), created: true}, nil
		}
		return openedCase{path: path}, err
	})
	return cmd
}

// gotCaseFile takes a case read from disk: it becomes the open case, its
// ticket the console's, and a case opened with --case goes on with its
// last look-up.
func (s *Screen) gotCaseFile(msg ui.Result[openedCase]) tea.Cmd {
	if msg.Err != nil {
		return ui.ReportError("opening the case "+msg.Value.path, msg.Err)
	}
	c := msg.Value.kase
	if c.Tenant != s.Deps.Client.Config().ClientKey {
		return ui.Notify(theme.ToneDanger, sanitize.Text(tenantRefusal(c)))
	}
	s.caseFile, s.casePath, s.ticket = c, msg.Value.path, c.Ticket
	s.SetSize(s.Width, s.Height)
	cmds := []tea.Cmd{}
	if msg.Value.created {
		cmds = append(cmds, notify("case "+c.Ticket+" opened: "+msg.Value.path))
	} else {
		cmds = append(cmds, notify("case "+c.Ticket+" opened ("+caseCounts(c)+"; agents "+sanitize.Text(strings.Join(c.Agents(), ", "))+")"))
	}
	if s.kase != nil {
		// The look-up shown is part of the case from now on (one still
		// loading is added when it answers), and the action log has it
		// under the case's ticket: a line still to be written takes the
		// ticket; one written before the ticket is logged again under it.
		switch {
		case !s.loading:
			s.recordLookup(s.kase)
			cmds = append(cmds, s.logAction(s.lookupEntry(), lookupOutcome(s.kase)+"; kept in case "+c.Ticket))
		case s.unlogged != nil:
			s.unlogged.Ticket = c.Ticket
		}
		if !s.kase.notFound && s.kase.err == nil {
			cmds = append(cmds, s.remember(recentLookup{Kind: s.kase.kind, ID: s.kase.id, US: s.kase.us, Ticket: s.ticket}))
		}
	} else if s.resume && len(c.Lookups) > 0 {
		// The case file's id is checked as a typed one is: a card number
		// or an e-mail in it is never sent nor logged.
		last := c.Lookups[len(c.Lookups)-1]
		if problem := idProblem(caseKind(last.Kind), last.ID); problem != "" {
			cmds = append(cmds, ui.Notify(theme.ToneDanger, "the case's last look-up was not made again: "+problem))
		} else {
			cmds = append(cmds, s.lookUp(caseKind(last.Kind), last.ID, last.Region == "US", c.Ticket))
		}
	}
	s.resume = false
	cmds = append(cmds, s.saveCase())
	return tea.Batch(cmds...)
}

// caseCounts says what a case holds, in a few words.
func caseCounts(c *casefile.Case) string {
	return plural(len(c.Lookups), "look-up") + ", " + plural(len(c.Notes), "note") + ", " + plural(len(c.Evidence), "piece") + " of evidence"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// saveCase writes the open case in a command.
func (s *Screen) saveCase() tea.Cmd {
	if s.caseFile == nil {
		return nil
	}
	snapshot, path, agent, now, gate := s.caseFile.Clone(), s.casePath, s.agent(), s.Deps.Clock(), s.gate
	s.saveSeq++
	seq := s.saveSeq
	_, cmd := ui.Go(s.Requests, func(context.Context) (caseSaved, error) {
		saveMu.Lock()
		defer saveMu.Unlock()
		if gate.savedSeq[path] > seq || gate.closed {
			return caseSaved{path: path}, nil // a newer state is written already
		}
		written, err := snapshot.Write(path, agent, now)
		if err == nil {
			gate.savedSeq[path] = seq // written: quitting need not write it again
		}
		return caseSaved{path: path, written: written}, err
	})
	return cmd
}

// gotCaseSaved takes in what other agents added to the case (the write
// merged it) and says who changed it.
func (s *Screen) gotCaseSaved(msg ui.Result[caseSaved]) tea.Cmd {
	if msg.Err != nil {
		return ui.ReportError("writing the case file", msg.Err)
	}
	w := msg.Value.written
	if w.Case == nil || s.caseFile == nil || msg.Value.path != s.casePath {
		return nil
	}
	s.caseFile = casefile.Merge(s.caseFile, w.Case)
	if len(w.News) == 0 {
		return nil
	}
	return ui.Notify(theme.ToneWarn, "case "+s.caseFile.Ticket+" changed by another agent since you read it (merged, nothing lost): "+strings.Join(w.News, "; "))
}

// finishWrites waits for the case write in flight, if any, makes the
// last one (so that a change made just before quitting reaches the
// file), and lets no write start after it.
func (s *Screen) finishWrites() {
	saveMu.Lock()
	defer saveMu.Unlock()
	s.gate.closed = true
	if s.caseFile != nil && s.casePath != "" && s.gate.savedSeq[s.casePath] < s.saveSeq {
		if _, err := s.caseFile.Write(s.casePath, s.agent(), s.Deps.Clock()); err != nil {
			slog.Error("writing the case file at the end", "path", s.casePath, "err", err)
		}
	}
}

// adoptOrphans takes in, at the start, the temporary case files a quit or
// a crash cut short (casefile.AdoptOrphans), and says so.
func (s *Screen) adoptOrphans() tea.Cmd {
	dir, now := s.opts.CasesDir, s.Deps.Clock()
	if dir == "" {
		return nil
	}
	return func() tea.Msg {
		saveMu.Lock()
		adopted, err := casefile.AdoptOrphans(dir, now)
		saveMu.Unlock()
		var taken, torn []string
		for _, a := range adopted {
			if a.Torn {
				torn = append(torn, filepath.Base(a.File))
			} else {
				taken = append(taken, a.Ticket)
			}
		}
		switch {
		case err != nil:
			return ui.Notify(theme.ToneDanger, "taking in the case files a quit left: "+err.Error())()
		case len(torn) > 0:
			return ui.Notify(theme.ToneWarn, "cases folder: "+strings.Join(torn, ", ")+" not whole cases (left as they are)")()
		case len(taken) > 0:
			return ui.Notify(theme.ToneInfo, "took in the last change of case "+strings.Join(taken, ", ")+" that a quit had left unwritten")()
		}
		return nil
	}
}

// recordLookup adds a look-up's answer to the open case.
func (s *Screen) recordLookup(c *caseData) {
	if s.caseFile == nil || c == nil {
		return
	}
	s.caseFile.AddLookup(casefile.Lookup{Time: s.Deps.Clock().UTC(), Agent: s.agent(), Kind: string(c.kind), ID: c.id,
		Region: regionName(c.us), Answer: casefile.Scrub(sanitize.Text(lookupAnswer(c)))})
}

// lookupAnswer says what a look-up found, in a few words.
func lookupAnswer(c *caseData) string {
	switch {
	case c.err != nil:
		return "failed: " + apiclient.ErrorMessage(c.err)
	case c.notFound:
		return "no consent set (404)"
	case c.kind == caseUser:
		return "consent status " + c.status.ConsentStatus + ", " + plural(len(c.sets), "consent set")
	}
	return plural(len(c.sets), "consent set")
}

// addNote keeps a note in the open case.
func (s *Screen) addNote(text, draftFrom string) tea.Cmd {
	text = strings.TrimRight(text, "\n ")
	if s.caseFile == nil || strings.TrimSpace(text) == "" {
		return nil
	}
	s.caseFile.AddNote(casefile.Note{Time: s.Deps.Clock().UTC(), Agent: s.agent(), Text: clean(text), Draft: draftFrom})
	return s.saveCase()
}

// editNote replaces the text of note i, saying so in the activity.
func (s *Screen) editNote(i int, text string) tea.Cmd {
	if s.caseFile == nil || i < 0 || i >= len(s.caseFile.Notes) {
		return nil
	}
	s.caseFile.Notes[i].Text = clean(strings.TrimRight(text, "\n "))
	s.caseFile.Notes[i].Edited = s.Deps.Clock().UTC()
	s.caseFile.Did(casefile.Activity{Time: s.Deps.Clock().UTC(), Agent: s.agent(), Action: "note edited",
		Detail: "the note of " + s.caseFile.Notes[i].Agent + " at " + s.caseFile.Notes[i].Time.Format(time.RFC3339)})
	return s.saveCase()
}

// keep adds evidence: text as the agent saw it, from answer (and the
// more answers it was drawn from: every page of a trail kept whole).
func (s *Screen) keep(title, text string, answer casefile.Answer, more ...casefile.Answer) tea.Cmd {
	if s.caseFile == nil {
		return ui.Notify(theme.ToneWarn, "no case open: set a ticket first (T on a case), and what you keep goes into its case")
	}
	it := casefile.Item{Time: s.Deps.Clock().UTC(), Agent: s.agent(), Title: casefile.Scrub(sanitize.Text(title)),
		Text: clean(text), Request: answer.Request, AnsweredAt: answer.At, SHA256: answer.SHA256}
	for _, a := range more {
		it.More = append(it.More, casefile.Answered{Request: a.Request, AnsweredAt: a.At, SHA256: a.SHA256})
	}
	s.caseFile.AddEvidence(it)
	return tea.Batch(s.saveCase(), ui.Notify(theme.ToneOK, "kept in case "+s.caseFile.Ticket+": "+title+" ("+answer.Request.Method+" "+answer.Request.Path+", sha256 "+short(answer.SHA256)+")"))
}

// short is the start of a hash, as the screen shows it.
func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12] + "…"
	}
	return hash
}

// clean is text as a case keeps it: no terminal controls, bidi or
// zero-width characters from the gateway, and nothing Scrub takes out.
func clean(text string) string { return casefile.Scrub(sanitize.Multiline(text)) }

// tenantRefusal says why a case is not opened under this tenant: it
// names another, or none (a case without a tenant could be worked under
// any by mistake).
func tenantRefusal(c *casefile.Case) string {
	if c.Tenant == "" {
		return "the case " + c.Ticket + " names no tenant (tenantClientKey), so it cannot be checked against this one; it was not opened"
	}
	return "the case " + c.Ticket + " belongs to the tenant " + c.Tenant + ", not this one; it was not opened"
}
