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
	var lines []string
	for i, e := range ts {
		ids[i] = e.ID
		if i < 8 {
			lines = append(lines, "• "+e.Name+" — "+e.WalletAddress)
		}
	}
	if len(ts) > 8 {
		lines = append(lines, fmt.Sprintf("… and %d more", len(ts)-8))
	}
	lines = append(lines, "Withdrawals to these addresses will no longer be possible.")
	client, n := w.deps.Client, len(ids)
	return w.remove.Ask(ui.ChangeSpec[whitelistDone]{
		Title:        fmt.Sprintf("Delete %d whitelist %s?", n, screenkit.Plural(n, "entry", "entries")),
		Request:      []string{"DELETE /v1/wallet/whitelist", joinIDs(ids)},
		Lines:        lines,
		ConfirmLabel: "delete",
		Tone:         theme.ToneDanger,
		What:         "deleting whitelist entries",
		Done:         fmt.Sprintf("deleted %d whitelist %s", n, screenkit.Plural(n, "entry", "entries")),
		Run: func(ctx context.Context) (whitelistDone, error) {
			return whitelistDone{n: n}, client.DeleteWhitelist(ctx, ids)
		},
	})
}

// deleted re-reads the list and says what happened; the marks go with
// the entries.
func (w *Screen) deleted(res ui.ChangeResult[whitelistDone]) tea.Cmd {
	if res.Err == nil {
		w.table.ClearMarks()
	}
	return tea.Batch(screenkit.Report(res), w.load())
}

// joinIDs is the body of a delete request as the confirmation shows it.
func joinIDs(ids []string) string {
	if len(ids) > 3 {
		return fmt.Sprintf(`{"walletIds":["%s", … %d ids in all]}`, ids[0], len(ids))
	}
	return `{"walletIds":["` + strings.Join(ids, `","`) + `"]}`
}
