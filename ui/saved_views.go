package ui

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/domain/savedview"
	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// Saved views (domain/savedview): a screen saves its filter under a name
// (SaveView); the root keeps the profile's views, writes them in a
// tea.Cmd, and lists them in the palette, where enter opens the screen
// and sends it OpenViewMsg.

// OpenViewMsg asks the screen a view belongs to to show it; the other
// screens ignore it.
type OpenViewMsg struct{ View savedview.View }

// saveViewMsg is a screen's request to keep a view.
type saveViewMsg struct{ view savedview.View }

// viewSavedMsg is the end of the write.
type viewSavedMsg struct {
	view savedview.View
	err  error
}

// SaveView asks the root to keep view in the profile's state file.
func SaveView(view savedview.View) tea.Cmd {
	return func() tea.Msg { return saveViewMsg{view: view} }
}

// updateViews writes a view (IO in the command) and takes its end.
func (r *Root) updateViews(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case saveViewMsg:
		save := r.opts.SaveView
		if save == nil {
			return Notify(theme.ToneWarn, "views cannot be saved here")
		}
		return func() tea.Msg { return viewSavedMsg{view: msg.view, err: save(msg.view)} }
	case viewSavedMsg:
		// The notice is the screen's that saved the view, as its other
		// notices are: the log names it, not cardterm.
		screen := ScreenID(msg.view.Screen)
		if msg.err != nil {
			return stampNotices(Notify(theme.ToneDanger, "the view was not saved: "+sanitize.Text(msg.err.Error())), screen)
		}
		r.views = append(withoutView(r.views, msg.view), msg.view)
		return stampNotices(Notify(theme.ToneOK, "view "+sanitize.Text(msg.view.Name)+" saved: : then its name opens it"), screen)
	}
	return nil
}

func withoutView(views []savedview.View, v savedview.View) []savedview.View {
	kept := make([]savedview.View, 0, len(views))
	for _, old := range views {
		if old.Screen != v.Screen || old.Name != v.Name {
			kept = append(kept, old)
		}
	}
	return kept
}

// viewEntries are the palette's rows of the saved views of the screens
// in the navigation.
func (r *Root) viewEntries() []paletteEntry {
	var entries []paletteEntry
	for _, v := range r.views {
		for i, s := range r.screens {
			if string(s.ID()) == v.Screen {
				entries = append(entries, paletteEntry{title: "view " + sanitize.Text(v.Name) + " on " + s.Title(),
					name: "view", screen: i, view: &v})
			}
		}
	}
	return entries
}

// openView opens a view's screen and sends it the view.
func (r *Root) openView(entry paletteEntry) tea.Cmd {
	view := *entry.view
	return tea.Sequence(r.navigate(r.screens[entry.screen].ID()), func() tea.Msg { return OpenViewMsg{View: view} })
}
