package webhooks

import (
	"cardterm/ui/keymap"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// keyMap are the webhooks screen's bindings; the mutating ones are disabled
// in read-only mode.
type keyMap struct {
	Details, Add, Edit, Toggle, Rotate, Delete key.Binding
	Close, CopyKey                             key.Binding
	// Listen points the selected configuration at the in-app listener,
	// ListenNew adds one for it; OpenByID looks one up by its id.
	Listen, ListenNew, OpenByID key.Binding
	// Scroll moves a page taller than the body (a detail with its
	// deliveries); the help offers it only then (scrolls).
	Scroll  ui.ScrollKeyMap
	table   help.KeyMap
	mode    viewMode
	masked  bool // the key panel shows a masked key
	scrolls bool // the page shown is taller than the body
}

func newWhKeys(readOnly bool, table help.KeyMap) keyMap {
	k := keyMap{
		Details:   keymap.Bind("webhooks.details"),
		Add:       keymap.Bind("webhooks.add"),
		Edit:      keymap.Bind("webhooks.edit"),
		Toggle:    keymap.Bind("webhooks.toggle"),
		Rotate:    keymap.Bind("webhooks.rotate"),
		Delete:    keymap.Bind("webhooks.delete"),
		Close:     keymap.Bind("webhooks.close"),
		CopyKey:   keymap.Bind("webhooks.copy-key"),
		Listen:    keymap.Bind("webhooks.listen"),
		ListenNew: keymap.Bind("webhooks.listen-new"),
		OpenByID:  keymap.Bind("webhooks.open-by-id"),
		Scroll:    ui.NewScrollKeys(),
		table:     table,
	}
	k.Scroll.Up.SetHelp(k.Scroll.Up.Help().Key, "scroll up")
	k.Scroll.Down.SetHelp(k.Scroll.Down.Help().Key, "scroll down")
	screenkit.DisableInReadOnly(readOnly, &k.Add, &k.Edit, &k.Toggle, &k.Rotate, &k.Delete, &k.Listen, &k.ListenNew)
	return k
}

// ShortHelp implements help.KeyMap: a page that scrolls names ↓ and ↑
// after its close key.
func (k keyMap) ShortHelp() []key.Binding {
	if k.mode != modeList && k.scrolls {
		page := k
		page.scrolls = false
		short := page.ShortHelp()
		return append([]key.Binding{short[0], k.Scroll.Down, k.Scroll.Up}, short[1:]...)
	}
	switch {
	case k.mode == modeKey && k.masked:
		return []key.Binding{k.Rotate, k.Close}
	case k.mode == modeKey:
		return []key.Binding{k.CopyKey, k.Close}
	case k.mode == modeDetail:
		return []key.Binding{k.Close, k.Edit, k.Toggle, k.Rotate, k.Delete, k.Listen}
	case k.mode == modeListenerHelp, k.mode == modeLookup:
		return []key.Binding{k.Close}
	}
	return append([]key.Binding{k.Details, k.Add, k.Edit, k.Toggle, k.Rotate, k.Delete, k.Listen, k.ListenNew, k.OpenByID}, k.table.ShortHelp()...)
}

// FullHelp implements help.KeyMap.
func (k keyMap) FullHelp() [][]key.Binding {
	if k.mode != modeList {
		page := k
		page.scrolls = false
		if !k.scrolls {
			return [][]key.Binding{page.ShortHelp()}
		}
		return [][]key.Binding{page.ShortHelp(),
			{k.Scroll.Up, k.Scroll.Down, k.Scroll.PageUp, k.Scroll.PageDown, k.Scroll.Home, k.Scroll.End}}
	}
	return append([][]key.Binding{{k.Details, k.Add, k.Edit}, {k.Toggle, k.Rotate, k.Delete}, {k.Listen, k.ListenNew, k.OpenByID}},
		k.table.FullHelp()...)
}
