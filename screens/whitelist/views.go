package whitelist

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"cardterm/domain/savedview"
	"cardterm/screens/screenkit"
)

// Saved views of the whitelist: the currency and the quick filter, saved
// under a name (V) and opened again from the palette.

// saveView opens the form that names the view of what is shown.
func (w *Screen) saveView() tea.Cmd {
	filter := savedview.FromWhitelist(w.currency, w.table.Filter())
	kept := []string{"currency: " + strings.ToUpper(w.currency)}
	if search := w.table.Filter(); search != "" {
		kept = append(kept, "filter: "+search)
	} else {
		kept = append(kept, "no filter (/ types one first)")
	}
	layer := screenkit.SaveViewLayer(w.Deps, w.ID(), kept, filter)
	return layer.Open(layer.Form.Focus())
}

// openView shows a saved view: its currency, loaded again, and its
// quick filter.
func (w *Screen) openView(view savedview.View) tea.Cmd {
	if view.Screen != string(w.ID()) {
		return nil
	}
	w.picker = nil
	currency, search := view.Whitelist()
	w.table.SetFilter(search)
	if currency == "" || currency == w.currency {
		return nil
	}
	w.currency = currency
	w.loadErr = nil
	w.setStore(&entryStore{})
	return w.load()
}
