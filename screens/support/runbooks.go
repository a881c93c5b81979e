package support

import (
	"cardterm/ui/keymap"

	"context"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/domain/casefile"
	"cardterm/domain/runbook"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// Runbooks (B on a user's case): the agent picks the kind of ticket; the
// run gathers each fact the runbook names (a look-up each, kept in the
// case as evidence with its request and hash) and the drafted reply
// lands in the case's notes for the agent to edit. Facts read in the
// customer's own session wait for it: the run says which, and goes on by
// itself when the customer approves a session (ctrl+o). A wallet address
// typed in the look-up form is searched the same way, in the customer's
// whitelist under every currency.

// runbookPicker lists the runbooks.
type runbookPicker struct {
	books    []runbook.Runbook
	selected int
	keys     pickerKeys
}

type pickerKeys struct{ Up, Down, Run, Back key.Binding }

func (k pickerKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Run, k.Up, k.Down, k.Back} }
func (k pickerKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

var _ help.KeyMap = pickerKeys{}

// pendingRun is work waiting for the approved session: a runbook's
// customer facts, or an address search.
type pendingRun struct {
	book    *runbook.Runbook
	address string
	userID  string
	// note is the partial draft the run left (its index and text): the
	// full draft replaces it when the agent has not edited it.
	note     int
	noteText string
	// waiting is the facts the first run could not read: the resumed run
	// keeps only these, the others being in the case already.
	waiting []string
}

// runDone is a run's answer.
type runDone struct {
	result  runbook.Result
	address string
	// partial says customer facts wait for the approved session.
	partial bool
	// resumed is the pending run, gone on under the approved session.
	resumed *pendingRun
}

// loadedRunbooks is the runbooks read for the picker, and the case they
// were asked for: a picker never opens on a case the agent has left.
type loadedRunbooks struct {
	books   []runbook.Runbook
	caseSeq int
}

// openRunbooks reads the built-in and the tenant's runbooks in a command
// (disk IO stays out of Update); showRunbooks opens the picker.
func (s *Screen) openRunbooks() tea.Cmd {
	dir, caseSeq := s.opts.RunbooksDir, s.caseSeq
	_, cmd := ui.Go(s.Requests, func(context.Context) (loadedRunbooks, error) {
		books, err := runbook.Load(dir)
		return loadedRunbooks{books: books, caseSeq: caseSeq}, err
	})
	return cmd
}

// showRunbooks opens the picker on what loaded; a tenant runbook that did
// not load is reported as every failure is, and the others still list.
func (s *Screen) showRunbooks(msg ui.Result[loadedRunbooks]) tea.Cmd {
	if s.kase == nil || msg.Value.caseSeq != s.caseSeq {
		return nil
	}
	p := &runbookPicker{books: msg.Value.books, keys: pickerKeys{
		Up:   keymap.Bind("support.open-runbooks-up"),
		Down: keymap.Bind("support.open-runbooks-down"),
		Run:  keymap.Bind("support.run"),
		Back: keymap.Bind("support.back"),
	}}
	return tea.Batch(ui.OpenLayer(&pickerLayer{caseLayer: s.newCaseLayer(), picker: p}),
		ui.ReportError("loading the runbooks", msg.Err))
}

func (s *Screen) runbookKey(l *pickerLayer, msg tea.KeyPressMsg) tea.Cmd {
	p := l.picker
	switch {
	case key.Matches(msg, p.keys.Back):
		l.closed = true
	case key.Matches(msg, p.keys.Up):
		p.selected = max(p.selected-1, 0)
	case key.Matches(msg, p.keys.Down):
		p.selected = min(p.selected+1, len(p.books)-1)
	case key.Matches(msg, p.keys.Run):
		if p.selected < 0 || p.selected >= len(p.books) {
			return nil
		}
		book := p.books[p.selected]
		l.closed = true
		return s.startRun(&book)
	}
	return nil
}

// sources are the clients a run reads with now.
func (s *Screen) sources(userID string) runbook.Sources {
	src := runbook.Sources{UserID: userID, Consent: s.readClient(), ConsentRec: s.consentRec}
	if a := s.approval; a != nil && a.open && a.userID == userID {
		src.Customer, src.CustomerRec = a.client, a.rec
	}
	return src
}

// startRun runs a runbook on the case's user in a command.
func (s *Screen) startRun(book *runbook.Runbook) tea.Cmd {
	if s.kase == nil || s.kase.kind != caseUser {
		return notify("a runbook runs on a user's case")
	}
	src := s.sources(s.kase.id)
	s.caseFile.Did(casefile.Activity{Time: s.Deps.Clock().UTC(), Agent: s.agent(), Action: "runbook started", Detail: book.Title})
	_, cmd := ui.Go(s.Requests, func(ctx context.Context) (runDone, error) {
		res := runbook.Run(ctx, *book, src)
		return runDone{result: res, partial: len(res.Waiting()) > 0}, nil
	})
	if src.Customer == nil {
		s.pending = &pendingRun{book: book, userID: s.kase.id}
	}
	return tea.Batch(cmd, notify("running the runbook "+book.Title+"…"))
}

// searchAddress looks an address up in the customer's whitelist, every
// currency, under the approved session (now, or when it opens).
func (s *Screen) searchAddress(address string) tea.Cmd {
	userID := ""
	if s.kase != nil && s.kase.kind == caseUser {
		userID = s.kase.id
	} else if s.caseFile != nil {
		for _, l := range s.caseFile.Lookups {
			if l.Kind == string(caseUser) {
				userID = l.ID
			}
		}
	}
	if userID == "" {
		return ui.Notify(theme.ToneWarn, "that is a wallet address: whitelists are the customer's own; look the customer up first ("+keymap.Key("support.user")+", their user id), then type the address")
	}
	src := s.sources(userID)
	if src.Customer == nil {
		s.pending = &pendingRun{address: address, userID: userID}
		return ui.Notify(theme.ToneInfo, "a wallet address: it is looked up in the whitelist of user "+userID+" under every currency as soon as the customer approves a session ("+keymap.Key("support.approve")+" on their case)")
	}
	_, cmd := ui.Go(s.Requests, func(ctx context.Context) (runDone, error) {
		f := runbook.SearchAddress(ctx, src, address)
		return runDone{result: runbook.Result{Facts: []runbook.Fact{f}}, address: address}, nil
	})
	return cmd
}

// showSearched puts an address search's answer on the console, where the
// agent looks, besides the notice.
func (s *Screen) showSearched(f runbook.Fact) {
	s.searched = f.Summary
	if f.Missing != "" {
		s.searched = "the address search failed: " + f.Missing
	}
	s.SetSize(s.Width, s.Height)
}

// resumePending runs what waited for the approved session, once it is
// open for the same user.
func (s *Screen) resumePending() tea.Cmd {
	p := s.pending
	if p == nil || s.approval == nil || !s.approval.open || s.approval.userID != p.userID {
		return nil
	}
	s.pending = nil
	src := s.sources(p.userID)
	_, cmd := ui.Go(s.Requests, func(ctx context.Context) (runDone, error) {
		if p.address != "" {
			f := runbook.SearchAddress(ctx, src, p.address)
			return runDone{result: runbook.Result{Facts: []runbook.Fact{f}}, address: p.address}, nil
		}
		return runDone{result: runbook.Run(ctx, *p.book, src), resumed: p}, nil
	})
	return cmd
}

// gotRun keeps each fact as evidence, the facts' dated records for the
// timeline, and the draft as a note.
func (s *Screen) gotRun(msg ui.Result[runDone]) tea.Cmd {
	if msg.Err != nil {
		return ui.ReportError("the runbook", msg.Err)
	}
	res, now, agent := msg.Value.result, s.Deps.Clock().UTC(), s.agent()
	if msg.Value.address != "" && len(res.Facts) > 0 {
		s.showSearched(res.Facts[0])
	}
	if s.caseFile == nil {
		if msg.Value.address != "" && len(res.Facts) > 0 {
			return ui.Notify(theme.ToneInfo, res.Facts[0].Summary+" (no case open: not kept)")
		}
		return notify("the case was closed; the run's facts were not kept")
	}
	kept, waiting := 0, 0
	for _, f := range res.Facts {
		if p := msg.Value.resumed; p != nil && p.waiting != nil && !slices.Contains(p.waiting, f.Name) {
			continue
		}
		if f.Missing != "" {
			waiting++
			continue
		}
		if len(f.Answers) > 0 {
			first := f.Answers[0]
			it := casefile.Item{Time: now, Agent: agent, Title: runbook.LabelledFactTitle(sanitize.Text(f.Label)), Text: clean(f.Summary),
				Request: first.Request, AnsweredAt: first.At, SHA256: first.SHA256}
			for _, a := range f.Answers[1:] {
				it.More = append(it.More, casefile.Answered{Request: a.Request, AnsweredAt: a.At, SHA256: a.SHA256})
			}
			s.caseFile.AddEvidence(it)
		}
		s.caseFile.AddEvents(f.Events)
		kept++
	}
	if msg.Value.address != "" {
		summary := "address search"
		if len(res.Facts) > 0 {
			summary = res.Facts[0].Summary
			if res.Facts[0].Missing != "" {
				summary = "the address search failed: " + res.Facts[0].Missing
			}
		}
		return tea.Batch(s.saveCase(), ui.Notify(theme.ToneInfo, summary))
	}
	name := res.Runbook.Name
	text := res.Draft
	if lines := res.Runbook.CannotTell; len(lines) > 0 {
		text += "\n\n-- What the interface cannot tell (for the agent, not the customer):\n- " + strings.Join(lines, "\n- ")
	}
	text = clean(text)
	if p := msg.Value.resumed; p != nil && p.noteText != "" && p.note < len(s.caseFile.Notes) && s.caseFile.Notes[p.note].Text == p.noteText {
		// The partial draft, untouched: the full one takes its place.
		s.caseFile.Notes[p.note].Text = text
		s.caseFile.Did(casefile.Activity{Time: now, Agent: agent, Action: "reply drafted by runbook " + name, Detail: "completed under the customer's approval"})
	} else {
		s.caseFile.AddNote(casefile.Note{Time: now, Agent: agent, Text: text, Draft: name})
		if p := s.pending; msg.Value.partial && p != nil && p.book != nil && p.book.Name == name {
			p.note, p.noteText, p.waiting = len(s.caseFile.Notes)-1, text, res.Waiting()
		}
	}
	done := "runbook " + res.Runbook.Title + ": " + plural(kept, "fact") + " kept as evidence; the draft reply is in the case's notes (" + keymap.Key("support.panel") + ")"
	if w := res.Waiting(); len(w) > 0 {
		done += "; " + strings.Join(w, ", ") + " wait for the customer's approval (" + keymap.Key("support.approve") + "), then the run goes on by itself"
	} else if waiting > 0 {
		done += "; " + plural(waiting, "fact") + " could not be read (see the draft)"
	}
	return tea.Batch(s.saveCase(), ui.Notify(theme.ToneOK, done))
}

// runbooksView lists the runbooks with their tickets.
func (s *Screen) runbooksView(p *runbookPicker) string {
	st := s.Deps.Styles
	width := max(s.Width, 20)
	lines := []string{st.Title.Render("Run a runbook") + "  " + st.Muted.Render("on user "+sanitize.Text(s.kase.id)+" · case "+sanitize.Text(s.ticket)), ""}
	for i, b := range p.books {
		mark := "  "
		title := st.Value.Render(sanitize.Text(b.Title))
		if i == p.selected {
			mark, title = "▸ ", st.TableSelected.Render(sanitize.Text(b.Title))
		}
		// A row too wide loses its end, marked with "…".
		lines = append(lines, ui.FitMarked(mark+title+st.Muted.Render("  "+sanitize.Text(b.Ticket)), width))
	}
	if p.selected >= 0 && p.selected < len(p.books) {
		b := p.books[p.selected]
		lines = append(lines, "", st.Muted.Render("Facts: ")+sanitize.Text(strings.Join(b.Facts, ", ")))
		if s.approval == nil || !s.approval.open {
			var waiting []string
			for _, f := range b.Facts {
				if runbook.NeedsApproval(f) {
					waiting = append(waiting, f)
				}
			}
			if len(waiting) > 0 {
				lines = append(lines, st.Text(theme.ToneInfo).Render(ansi.Wrap("Read in the customer's session: "+strings.Join(waiting, ", ")+" (they are gathered when the customer approves one, "+keymap.Key("support.approve")+").", width, " ")))
			}
		}
		for _, c := range b.CannotTell {
			for i, l := range strings.Split(ansi.Wrap("cannot tell: "+sanitize.Text(c), width-2, " "), "\n") {
				prefix := "  "
				if i == 0 {
					prefix = "● "
				}
				lines = append(lines, st.Text(theme.ToneWarn).Render(prefix+l))
			}
		}
		lines = append(lines, st.Muted.Render("From: "+sanitize.Text(b.Source)))
	}
	return strings.Join(lines, "\n")
}
