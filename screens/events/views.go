package events

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/domain/savedview"
	"cardterm/screens/screenkit"
)

// Saved views of the events: the quick filter (an event type, a status,
// a card), saved under a name (V) and opened again from the palette.

// saveView opens the form that names the view of the filter in use.
func (s *Screen) saveView() tea.Cmd {
	search := s.table.Filter()
	kept := []string{"filter: " + search}
	if search == "" {
		kept = []string{"no filter (/ types one first: an event type, verified, rejected)"}
	}
	layer := screenkit.SaveViewLayer(s.Deps, s.ID(), kept, savedview.FromEvents(search))
	return layer.Open(layer.Form.Focus())
}

// openView puts a saved view's filter on the deliveries.
func (s *Screen) openView(view savedview.View) tea.Cmd {
	if view.Screen != string(s.ID()) {
		return nil
	}
	s.table.SetFilter(view.Events())
	if d, ok := s.selected(); ok && d.Seq != s.paneSeq {
		s.paneSeq, s.paneOffset = d.Seq, 0
	}
	s.layoutPane()
	return nil
}
