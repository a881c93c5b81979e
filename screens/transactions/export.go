package transactions

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/domain/statement"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// The export (x) writes the list as filtered (the gateway's filters and
// the quick filter) to a file the user names, every page of it, as CSV,
// JSON or JSON lines (statement package). It runs as one request: the
// heading shows its progress bar, esc cancels it (nothing is left
// behind), and a notice says where it wrote.

// exportRun is an export in flight.
type exportRun struct {
	id   ui.RequestID
	path string
	// progress carries the latest progress from the request; it is
	// closed when the request ends.
	progress chan statement.Progress
	last     statement.Progress
	started  time.Time
}

// exportProgressMsg is the progress an export reached; done when the
// request has ended (its result follows).
type exportProgressMsg struct {
	id   ui.RequestID
	at   statement.Progress
	done bool
}

// openExport opens the form that asks for the file.
func (t *Screen) openExport() tea.Cmd {
	if t.export != nil {
		return ui.Notify(theme.ToneInfo, "an export is running: "+keymap.Key("global.back")+" cancels it")
	}
	if !t.loaded || t.loadErr != nil {
		return ui.Notify(theme.ToneInfo, "nothing to export yet")
	}
	name := "transactions-" + t.Deps.Clock().Format(time.DateOnly) + ".csv"
	what := "every page of the list"
	if s := t.filterSummary(); s != "" {
		what += " (" + s + ")"
	}
	file := form.New(t.Deps.Styles, form.Spec{Title: "Export transactions", Submit: "export",
		Lines:  []string{"Writes " + what + ".", "Amounts signed and exact, times in UTC; the name's ending (.csv, .json, .jsonl) picks the format."},
		Fields: []form.Field{{Key: "file", Label: "File", Placeholder: "transactions.csv", Value: name, CharLimit: 1024}}})
	l := &screenkit.FormLayer{Form: file, Requests: t.Requests, Submit: t.checkExportFile, Answer: t.exportChecked,
		Width: func(width int) int { return min(width-2, 90) }, Draw: t.drawForm}
	return l.Open(file.Focus())
}

// filterSummary says what the list is filtered by, "" for nothing.
func (t *Screen) filterSummary() string {
	var parts []string
	if t.filter.DateFrom != "" {
		parts = append(parts, t.filter.DateFrom+" to "+t.filter.DateTo)
	}
	if len(t.filter.MCCCategories) > 0 {
		parts = append(parts, "category "+strings.Join(t.filter.MCCCategories, ","))
	}
	if t.filter.SearchKey != "" {
		parts = append(parts, "search \""+t.filter.SearchKey+"\"")
	}
	if t.tag != "" {
		parts = append(parts, "tag #"+t.tag)
	}
	if q := t.table.Filter(); q != "" {
		parts = append(parts, "rows holding \""+q+"\"")
	}
	return sanitize.Text(strings.Join(parts, ", "))
}

// checkExportFile checks the name typed against the disk in a command
// (no IO in Update); the form stays, busy, until it answers.
func (t *Screen) checkExportFile(f *form.Form) (tea.Cmd, bool) {
	typed := f.Value("file")
	f.SetBusy(true)
	return ui.Start(t.Requests, &t.exportCheckID, func(context.Context) (string, error) {
		return statement.CheckFile(typed)
	}), false
}

// exportChecked takes the checked file name: the export starts and the
// form closes, or the form says what is wrong with the name, what was
// typed kept. Transactions another screen shows here close it.
func (t *Screen) exportChecked(f *form.Form, msg tea.Msg) (tea.Cmd, bool) {
	if _, shown := msg.(screenkit.ShowTransactionsMsg); shown {
		return nil, true
	}
	res, ok := msg.(ui.Result[string])
	if !ok || res.ID != t.exportCheckID {
		return nil, false
	}
	f.SetBusy(false)
	if res.Err != nil {
		return f.SetErrors("", []form.FieldError{{Field: "file", Message: res.Err.Error()}}), false
	}
	return t.startExport(res.Value), true
}

// startExport starts writing the list to path.
func (t *Screen) startExport(path string) tea.Cmd {
	client := t.Deps.Client
	q := statement.Query{Filter: t.filter, Keep: bothKeep(quickFilterKeep(t.table.Filter()), tagKeep(t.notes, t.tag)),
		Notes: t.notesColumns()}
	progress := make(chan statement.Progress, 1)
	run := &exportRun{path: path, progress: progress, started: t.Deps.Clock()}
	cmd := ui.Start(t.Requests, &run.id, func(ctx context.Context) (statement.Summary, error) {
		defer close(progress)
		return statement.ExportFile(ctx, client, q, path, func(p statement.Progress) {
			// The latest progress replaces one the screen has not read.
			select {
			case <-progress:
			default:
			}
			progress <- p
		})
	})
	t.export = run
	t.staleFrame()
	return tea.Batch(cmd, run.wait())
}

// wait is the command that brings the next progress.
func (r *exportRun) wait() tea.Cmd {
	id, progress := r.id, r.progress
	return func() tea.Msg {
		p, ok := <-progress
		return exportProgressMsg{id: id, at: p, done: !ok}
	}
}

// exportProgress takes a progress message.
func (t *Screen) exportProgress(msg exportProgressMsg) tea.Cmd {
	if t.export == nil || msg.id != t.export.id || msg.done {
		return nil
	}
	t.export.last = msg.at
	t.staleFrame()
	return t.export.wait()
}

// exportDone takes the export's result: where it wrote, or why not.
func (t *Screen) exportDone(msg ui.Result[statement.Summary]) tea.Cmd {
	run := t.export
	t.export = nil
	t.staleFrame()
	switch {
	case errors.Is(msg.Err, context.Canceled):
		return ui.Notify(theme.ToneWarn, "export cancelled: nothing written")
	case errors.Is(msg.Err, statement.ErrStopped):
		// A statement that does not reach the end is not kept.
		return ui.Notify(theme.ToneWarn, "export stopped, nothing written to "+sanitize.Text(run.path)+": "+sanitize.Text(msg.Err.Error()))
	case msg.Err != nil:
		return screenkit.Failed("exporting transactions to "+run.path, msg.Err)
	}
	sum := msg.Value
	totals := sanitize.Text(sum.Totals.String()) // currencies are the gateway's
	if totals == "" {
		totals = "no amounts"
	}
	return ui.Notify(theme.ToneOK, fmt.Sprintf("wrote %d transactions to %s (%s)", sum.Kept, run.path, totals))
}

// exportLine is the heading while an export runs: a bar and how far.
func (t *Screen) exportLine(width int) string {
	r := t.export
	st := t.Deps.Styles
	at := r.last
	text := fmt.Sprintf(" %d rows, %d pages", at.Kept, at.Pages)
	if at.Reached != "" {
		text += ", back to " + sanitize.Text(at.Reached)
	}
	text += " · " + keymap.Key("global.back") + " cancels"
	barWidth := max(min(width-len(text)-len("Exporting  100% ")-2, 30), 8)
	return st.Title.Render("Exporting") + " " + progressBar(at, barWidth) + st.Muted.Render(text)
}

// progressBar is a bar of width cells: filled to the part done when the
// range is known, else a block that moves with each page. It reads
// without colour (█ done, ░ to do).
func progressBar(at statement.Progress, width int) string {
	var b strings.Builder
	if at.Fraction >= 0 {
		done := int(at.Fraction * float64(width))
		b.WriteString(strings.Repeat("█", done) + strings.Repeat("░", width-done))
		fmt.Fprintf(&b, " %3d%%", int(at.Fraction*100))
		return b.String()
	}
	pos := at.Pages % width
	for i := range width {
		if i >= pos && i < pos+3 {
			b.WriteString("█")
		} else {
			b.WriteString("░")
		}
	}
	return b.String()
}

// quickFilterKeep is the quick filter as an export's test: a transaction
// is kept when one of the cells the list draws for it holds the text,
// in any letter case. nil for no filter.
func quickFilterKeep(filter string) func(*apiclient.Transaction) bool {
	q := strings.ToLower(filter)
	if q == "" {
		return nil
	}
	return func(x *apiclient.Transaction) bool {
		var date strings.Builder
		writeDate(&date, x.DateTime)
		amount := signedAmount(x)
		if amount == "" {
			amount = notGivenCell
		}
		for _, cell := range []string{date.String(), x.MerchantNameLocation, x.MCCCategory, amount, x.Status} {
			if strings.Contains(strings.ToLower(sanitize.Text(cell)), q) {
				return true
			}
		}
		return false
	}
}
