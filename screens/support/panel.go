package support

import (
	"cardterm/ui/keymap"

	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/sanitize"
)

// The case panel (N): the open case's notes, newest last, each with its
// time and agent, then its evidence with the request and hash, and the
// look-ups made. ↑/↓ select a note, enter edits it (a runbook's draft is
// a note to edit), n adds one, esc goes back.

type casePanel struct {
	selected int // the note selected
	keys     panelKeys
}

type panelKeys struct {
	Up, Down, Edit, Add, Export, Back key.Binding
}

func (k panelKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Edit, k.Add, k.Export, k.Up, k.Down, k.Back}
}
func (k panelKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

var _ help.KeyMap = panelKeys{}

func (s *Screen) openPanel() tea.Cmd {
	if s.caseFile == nil {
		return notify("no case open: " + s.keys.Ticket.Help().Key + " sets a ticket and opens its case")
	}
	panel := &casePanel{selected: len(s.caseFile.Notes) - 1, keys: panelKeys{
		Up:     keymap.Bind("support.up"),
		Down:   keymap.Bind("support.down"),
		Edit:   keymap.Bind("support.edit"),
		Add:    keymap.Bind("support.add"),
		Export: keymap.Bind("support.open-panel-export"),
		Back:   keymap.Bind("support.back"),
	}}
	return ui.OpenLayer(&panelLayer{caseLayer: s.newCaseLayer(), panel: panel})
}

func (s *Screen) panelKey(l *panelLayer, msg tea.KeyPressMsg) tea.Cmd {
	p, notes := l.panel, s.caseFile.Notes
	switch {
	case key.Matches(msg, p.keys.Back):
		l.closed = true
	case key.Matches(msg, p.keys.Up):
		p.selected = max(p.selected-1, 0)
	case key.Matches(msg, p.keys.Down):
		p.selected = min(p.selected+1, len(notes)-1)
	case key.Matches(msg, p.keys.Add):
		return s.openNoteForm()
	case key.Matches(msg, p.keys.Export):
		return s.exportCase()
	case key.Matches(msg, p.keys.Edit):
		if p.selected < 0 || p.selected >= len(notes) {
			return notify("no note yet: " + p.keys.Add.Help().Key + " adds one")
		}
		edit := noteForm(s.Deps.Styles, "Edit the note of "+sanitize.Text(notes[p.selected].Agent), notes[p.selected].Text)
		return s.openFormLayer(&formLayer{caseLayer: s.newCaseLayer(), form: edit, purpose: formEditNote, editing: p.selected})
	}
	return nil
}

// openNoteForm asks for a new note.
func (s *Screen) openNoteForm() tea.Cmd {
	if s.caseFile == nil {
		return notify("no case open: " + s.keys.Ticket.Help().Key + " sets a ticket and opens its case")
	}
	return s.openForm(formNote, noteForm(s.Deps.Styles, "Note for case "+s.caseFile.Ticket, ""))
}

// noteForm is one multi-line field; ctrl+s saves.
func noteForm(st *theme.Styles, title, text string) *form.Form {
	return form.New(st, form.Spec{
		Title:  title,
		Lines:  []string{"Kept in the case with the time and your agent name. No e-mail, card number or key is kept (they are taken out)."},
		Submit: "save",
		Fields: []form.Field{{Key: "note", Label: "Note", Kind: form.FieldMultiline, CharLimit: 4000, Value: text, Check: nonEmpty("write the note")}},
	})
}

// panelView draws the case: notes, then evidence, then look-ups.
func (s *Screen) panelView(p *casePanel) string {
	st, c := s.Deps.Styles, s.caseFile
	width := max(s.Width, 20)
	var lines []string
	head := st.Title.Render("Case "+sanitize.Text(c.Ticket)) + "  " + st.Muted.Render(caseCounts(c)+" · agents "+sanitize.Text(strings.Join(c.Agents(), ", ")))
	lines = append(lines, head, st.Muted.Render(sanitize.Text(s.casePath)), "")
	lines = append(lines, st.Subtitle.Render("Notes"))
	if len(c.Notes) == 0 {
		lines = append(lines, st.Muted.Render("No note yet: "+p.keys.Add.Help().Key+" adds one."))
	}
	selectedAt := 0
	for i, n := range c.Notes {
		mark := "  "
		if i == p.selected {
			mark, selectedAt = "▸ ", len(lines)
		}
		who := screenkit.FormatTime(n.Time.Format(timeLayout)) + " · " + sanitize.Text(n.Agent)
		if n.Draft != "" {
			who += " · draft from runbook " + n.Draft
		}
		lines = append(lines, mark+st.Value.Render(sanitize.Text(who)))
		for _, l := range strings.Split(sanitize.Multiline(n.Text), "\n") {
			for _, w := range strings.Split(ansi.Wrap(l, width-4, " "), "\n") {
				lines = append(lines, "    "+w)
			}
		}
	}
	lines = append(lines, "", st.Subtitle.Render("Evidence"))
	if len(c.Evidence) == 0 {
		lines = append(lines, st.Muted.Render("None yet: "+keymap.Key("support.keep")+" keeps the selection here, on the console or in an approved session."))
	}
	for _, it := range c.Evidence {
		first, _, _ := strings.Cut(it.Text, "\n")
		source := it.Request.String() + " · sha256 " + short(it.SHA256) + " · " + sanitize.Text(it.Agent)
		if len(it.More) > 0 {
			source += " · " + plural(len(it.More), "more answer")
		}
		lines = append(lines, "  "+st.Value.Render(sanitize.Text(it.Title)))
		for _, l := range strings.Split(ansi.Wrap(sanitize.Text(first), width-4, " "), "\n") {
			lines = append(lines, "    "+l)
		}
		lines = append(lines, "    "+st.Muted.Render(sanitize.Text(source)))
	}
	lines = append(lines, "", st.Subtitle.Render("Look-ups"))
	for _, l := range c.Lookups {
		lines = append(lines, "  "+st.Muted.Render(sanitize.Text(screenkit.FormatTime(l.Time.Format(timeLayout))+" · "+l.Agent+" · "+l.Kind+" "+l.ID+" ("+l.Region+"): "+l.Answer)))
	}
	// The title stays; below it the selected note starts the page when
	// the whole case does not fit.
	h := max(s.Height, 3)
	offset := 1
	if len(lines) > h && selectedAt > 1 {
		offset = max(min(selectedAt, len(lines)-(h-1)), 1)
	}
	shown := append(lines[:1:1], lines[offset:]...)
	for i, l := range shown {
		shown[i] = ui.FitLine(l, width)
	}
	return strings.Join(shown, "\n")
}

// timeLayout is how the case's times are handed to the screens' formatter.
const timeLayout = "2006-01-02T15:04:05Z07:00"
