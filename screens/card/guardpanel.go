package card

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/apiclient"
	"cardterm/domain/guard"
	"cardterm/domain/humantime"
	"cardterm/domain/profiledata"
	"cardterm/domain/statement"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// The guard panel (g): the rules in force, the last actions they took
// (the profile's log) and, on d, a dry run over the history. e opens the
// rules' YAML in the one form; a save is checked node by node and a
// mistake is shown with its line and field.

// guardPanel is the open panel, a layer over the Card screen.
type guardPanel struct {
	c             *Screen
	keys          guardPanelKeys
	log           []guard.Entry
	dry           []guard.Decision
	dryRead       int
	dryRunning    bool
	dryID         ui.RequestID
	width, height int
	closed        bool
}

type guardPanelKeys struct{ Edit, DryRun, Back key.Binding }

func (k guardPanelKeys) ShortHelp() []key.Binding  { return []key.Binding{k.Edit, k.DryRun, k.Back} }
func (k guardPanelKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// guardLogMsg is the log read for the panel.
type guardLogMsg struct{ entries []guard.Entry }

// dryRunResult is a dry run's answer.
type dryRunResult struct {
	decisions []guard.Decision
	read      int
}

// openGuardPanel opens the panel and reads the log.
func (c *Screen) openGuardPanel() tea.Cmd {
	if c.Deps.HolderDir == "" {
		return ui.Notify(theme.ToneWarn, "guard rules need a profile folder")
	}
	p := &guardPanel{c: c, keys: guardPanelKeys{
		Edit:   keymap.Bind("guard.edit"),
		DryRun: keymap.Bind("guard.dry-run"),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
	}}
	return ui.OpenLayer(p, readGuardLog(c.Deps.HolderDir))
}

func readGuardLog(dir string) tea.Cmd {
	return func() tea.Msg {
		entries, _ := guard.ReadLog(guard.LogFile(dir), 50)
		return guardLogMsg{entries: entries}
	}
}

// Update implements layer.Layer.
func (p *guardPanel) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case guardLogMsg:
		p.log = msg.entries
	case guardLoggedMsg:
		return readGuardLog(p.c.Deps.HolderDir)
	case ui.Result[dryRunResult]:
		if msg.ID == p.dryID {
			p.dryRunning = false
			p.dry, p.dryRead = msg.Value.decisions, msg.Value.read
			return screenkit.ReadFailed("the dry run", msg.Err)
		}
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, p.keys.Back):
			p.closed = true
		case key.Matches(msg, p.keys.Edit):
			return p.c.openRuleEditor()
		case key.Matches(msg, p.keys.DryRun):
			return p.dryRun()
		}
	}
	return nil
}

// dryRun reads every page and runs the rules over it, sending nothing.
func (p *guardPanel) dryRun() tea.Cmd {
	if p.dryRunning {
		return nil
	}
	client, rules := p.c.Deps.Client, p.c.guard.rules
	p.dryRunning = true
	var cmd tea.Cmd
	p.dryID, cmd = ui.Go(p.c.Requests, func(ctx context.Context) (dryRunResult, error) {
		var history []apiclient.Transaction
		_, err := statement.Walk(ctx, client, statement.Query{}, func(x *apiclient.Transaction) error {
			history = append(history, *x)
			return nil
		}, nil)
		return dryRunResult{decisions: guard.DryRun(rules, history), read: len(history)}, err
	})
	return cmd
}

// SetSize implements layer.Layer.
func (p *guardPanel) SetSize(width, height int) { p.width, p.height = width, height }

// KeyMap implements layer.Layer.
func (p *guardPanel) KeyMap() help.KeyMap { return p.keys }

// Done implements layer.Layer.
func (p *guardPanel) Done() bool { return p.closed }

// View implements layer.Layer: the rules, the dry run when asked, the
// last actions.
func (p *guardPanel) View() string {
	st := p.c.Deps.Styles
	var b strings.Builder
	b.WriteString(st.Title.Render("Guard rules") + "  " + st.Muted.Render("guard.yaml · docs/guard-rules.md"))
	rules := p.c.guard.rules
	if p.c.Deps.ReadOnly {
		b.WriteString("\n" + st.Text(theme.ToneWarn).Render("read-only mode: the rules only notify"))
	}
	b.WriteString("\n")
	if len(rules.Rules) == 0 {
		b.WriteString("\n" + st.Muted.Render("No rules yet: "+p.keys.Edit.Help().Key+" writes them (an example to start from)."))
	}
	for _, r := range rules.Rules {
		b.WriteString("\n" + ansi.Wordwrap(sanitize.Text("• "+ruleSummary(r, rules.Home)), max(p.width, 10), " "))
	}
	b.WriteString("\n\n" + st.Subtitle.Render("Dry run"))
	switch {
	case p.dryRunning:
		b.WriteString("\n" + st.Muted.Render("reading every page…"))
	case p.dry == nil && p.dryRead == 0:
		b.WriteString("\n" + st.Muted.Render(p.keys.DryRun.Help().Key+" shows what the rules would have done over the history"))
	default:
		b.WriteString("\n" + st.Muted.Render(fmt.Sprintf("%d transactions read: the rules would have acted %d times", p.dryRead, len(p.dry))))
		for _, d := range p.dry[max(len(p.dry)-8, 0):] {
			b.WriteString("\n" + p.line(d.Transaction.At.Format("2006-01-02 15:04")+"  would "+d.Action+"  "+d.Rule.Name+"  "+d.Transaction.Amount+" "+d.Transaction.Merchant))
		}
	}
	b.WriteString("\n\n" + st.Subtitle.Render("Last actions"))
	if len(p.log) == 0 {
		b.WriteString("\n" + st.Muted.Render("none yet"))
	}
	for i := len(p.log) - 1; i >= 0 && i >= len(p.log)-10; i-- {
		e := p.log[i]
		b.WriteString("\n" + p.line(e.Time.Local().Format("2006-01-02 15:04")+"  "+e.Rule+": "+e.Outcome+"  "+e.Amount+" "+e.Merchant))
	}
	return screenkit.Place(b.String(), p.width, p.height)
}

// line is one line of outside text, made safe and cut to the width.
func (p *guardPanel) line(text string) string {
	return ansi.Truncate(sanitize.Text(text), max(p.width, 10), "…")
}

// ruleSummary says a rule in one line: "2 declines within 10m abroad →
// freeze alone (cool-down 30m)".
func ruleSummary(r guard.Rule, home string) string {
	var when []string
	if r.Declines > 0 {
		when = append(when, fmt.Sprintf("%d declines within %s", r.Declines, humantime.Typed(r.Within)))
	}
	for _, part := range [][2]string{{"merchant ", r.Merchant}, {"category ", r.Category}, {"country ", r.Country}} {
		if part[1] != "" {
			when = append(when, part[0]+part[1])
		}
	}
	if r.Abroad {
		when = append(when, "abroad (not "+home+")")
	}
	if r.AmountOver != "" {
		when = append(when, strings.TrimSpace("over "+r.AmountOver+" "+r.Currency))
	}
	if len(when) == 0 {
		when = []string{"every payment"}
	}
	then := r.Action
	if r.Action == guard.Freeze {
		then += map[bool]string{true: " alone", false: " (asks first)"}[r.Alone] + ", cool-down " + humantime.Typed(r.Cooldown)
	}
	return r.Name + ": " + strings.Join(when, ", ") + " → " + then
}

// openRuleEditor opens the rules' YAML in the one form; the file (or the
// example) is read in a command first.
func (c *Screen) openRuleEditor() tea.Cmd {
	dir := c.Deps.HolderDir
	return func() tea.Msg {
		data, err := os.ReadFile(guard.File(dir))
		if errors.Is(err, fs.ErrNotExist) {
			return ruleTextMsg{text: guard.Example}
		}
		return ruleTextMsg{text: string(data), err: err}
	}
}

// ruleTextMsg is the rules' text to edit.
type ruleTextMsg struct {
	text string
	err  error
}

// editRules opens the editor on the text read.
func (c *Screen) editRules(msg ruleTextMsg) tea.Cmd {
	if msg.err != nil {
		return ui.ReportError("reading the guard rules", msg.err)
	}
	dir := c.Deps.HolderDir
	f := form.New(c.Deps.Styles, form.Spec{
		Title:  "Guard rules (YAML)",
		Lines:  []string{"Kept with the profile; checked line by line when saved (docs/guard-rules.md)."},
		Submit: "save",
		Fields: []form.Field{{Key: "rules", Label: "Rules", Value: msg.text, Kind: form.FieldMultiline, CharLimit: 32 << 10,
			Lines: max(c.Height-12, 4)}},
	})
	return screenkit.OpenLocalForm(screenkit.LocalForm{Form: f, Requests: c.Requests, Saved: "guard rules saved and in force",
		Save: func(f *form.Form) func() (tea.Msg, error) {
			text := f.Value("rules")
			rules, err := guard.Parse("guard.yaml", []byte(text))
			if err != nil {
				f.SetErrors("", []form.FieldError{{Field: "rules", Message: err.Error()}})
				return nil
			}
			return func() (tea.Msg, error) {
				err := profiledata.WriteFile(guard.File(dir), func(w io.Writer) error { _, err := io.WriteString(w, text); return err })
				return guardRulesMsg{rules: rules}, err
			}
		}})
}
