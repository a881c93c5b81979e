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

func (w *Screen) confirmDelete() tea.Cmd {
	if w.deleting != nil || w.running || w.loading {
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
	w.deleting = ids
	body := joinIDs(ids)
	return ui.Confirm(ui.ConfirmSpec{
		Title:        fmt.Sprintf("Delete %d whitelist %s?", len(ts), screenkit.Plural(len(ts), "entry", "entries")),
		Request:      []string{"DELETE /v1/wallet/whitelist", body},
		Lines:        lines,
		ConfirmLabel: "delete",
		Tone:         theme.ToneDanger,
		OnConfirm:    whitelistDeleteMsg{ids: ids},
		OnCancel:     whitelistCancelMsg{},
	})
}

func (w *Screen) runDelete(ids []string) tea.Cmd {
	if w.running || len(w.deleting) == 0 || len(ids) != len(w.deleting) {
		return nil
	}
	w.running = true
	client := w.deps.Client
	return ui.Start(w.requests, &w.deleteID, func(ctx context.Context) (whitelistDone, error) {
		return whitelistDone{what: "delete", n: len(ids)}, client.DeleteWhitelist(ctx, ids)
	})
}

// joinIDs is the body of a delete request as the confirmation shows it.
func joinIDs(ids []string) string {
	if len(ids) > 3 {
		return fmt.Sprintf(`{"walletIds":["%s", … %d ids in all]}`, ids[0], len(ids))
	}
	return `{"walletIds":["` + strings.Join(ids, `","`) + `"]}`
}
