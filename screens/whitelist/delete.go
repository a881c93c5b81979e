package whitelist

import (
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// Deleting entries: the marked ones, else the selected one, after a
// confirmation that shows the request.

// targets are the entries x acts on: the marked ones, else the selected.
func (w *Screen) targets() []*apiclient.WhitelistEntry {
	var out []*apiclient.WhitelistEntry
	for _, i := range w.table.Marked() {
		if i < w.store.len() {
			out = append(out, w.store.at(i))
		}
	}
	if len(out) == 0 {
		if e := w.selected(); e != nil {
			out = append(out, e)
		}
	}
	return out
}

// confirmDelete asks to delete the targets, showing the request; nothing
// while a load (whose rows may change under the marks) is on its way.
func (w *Screen) confirmDelete() tea.Cmd {
	if w.loading {
		return nil
	}
	ts := w.targets()
	if len(ts) == 0 {
		return ui.Notify(theme.ToneInfo, "no entry selected")
	}
	ids := make([]string, len(ts))
	for i, e := range ts {
		ids[i] = e.ID
	}
	lines := listEntries(len(ts), func(i int) (string, string) { return ts[i].Name, ts[i].WalletAddress })
	client, n := w.Deps.Client, len(ids)
	return w.remove.Ask(ui.ChangeSpec[whitelistDone]{
		Title:        "Delete " + countEntries(n) + "?",
		Request:      apiclient.DeleteWhitelistCall(ids).Lines(),
		Lines:        append(lines, "Withdrawals to these addresses will no longer be possible."),
		ConfirmLabel: "delete",
		Tone:         theme.ToneDanger,
		What:         "deleting whitelist entries",
		Done:         "deleted " + countEntries(n),
		Send:         screenkit.SentOf(apiclient.DeleteWhitelistCall(ids)),
		Run: func(ctx context.Context) (whitelistDone, error) {
			return whitelistDone{n: n}, client.DeleteWhitelist(ctx, ids)
		},
	})
}

// countEntries is "3 whitelist entries", for a change's title and notice.
func countEntries(n int) string {
	return fmt.Sprintf("%d whitelist %s", n, screenkit.Plural(n, "entry", "entries"))
}

// listEntries names the entries a change sends, one "• name — address" a
// line, for its confirmation: eight at the most, then how many more.
func listEntries(count int, entry func(i int) (name, address string)) []string {
	const most = 8
	lines := make([]string, 0, min(count, most)+2)
	for i := range min(count, most) {
		name, address := entry(i)
		lines = append(lines, "• "+name+" — "+address)
	}
	if count > most {
		lines = append(lines, fmt.Sprintf("… and %d more", count-most))
	}
	return lines
}

// deleted re-reads the list and says what happened; the marks go with
// the entries.
func (w *Screen) deleted(res ui.ChangeResult[whitelistDone]) tea.Cmd {
	if res.Err == nil {
		w.table.ClearMarks()
	}
	return tea.Batch(screenkit.Report(res), w.load())
}

// syncDelete offers x only while there is an entry to delete: on an empty
// list the footer and help do not name a key that does nothing, and a
// press of it says why.
func (w *Screen) syncDelete() {
	w.why = screenkit.DisabledReasons{}
	w.keys.Delete.SetEnabled(!w.Deps.ReadOnly)
	if !w.Deps.ReadOnly && w.store.len() == 0 {
		w.why.Disable(&w.keys.Delete, "nothing to delete: the "+strings.ToUpper(sanitize.Text(w.currency))+" whitelist is empty")
	}
}

// WhyDisabled implements ui.Explainer: a key syncDelete disabled says why
// nothing happens.
func (w *Screen) WhyDisabled(pressed string) (string, bool) {
	why, ok := w.why[pressed]
	return why, ok
}
