package webhooks

import (
	"cardterm/ui/keymap"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"

	"cardterm/screens/screenkit"
)

// keyMap are the webhooks screen's bindings; the mutating ones are disabled
// in read-only mode.
type keyMap struct {
	Details, Add, Edit, Toggle, Rotate, Delete key.Binding
	Close, CopyKey                             key.Binding
	// Listen points the selected configuration at the in-app listener,
	// ListenNew adds one for it; OpenByID looks one up by its id.
	Listen, ListenNew, OpenByID key.Binding
	table                       help.KeyMap
	mode                        viewMode
	masked                      bool // the key panel shows a masked key
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
		table:     table,
	}
	screenkit.DisableInReadOnly(readOnly, &k.Add, &k.Edit, &k.Toggle, &k.Rotate, &k.Delete, &k.Listen, &k.ListenNew)
	return k
}

// ShortHelp implements help.KeyMap.
func (k keyMap) ShortHelp() []key.Binding {
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
		return [][]key.Binding{k.ShortHelp()}
	}
	return append([][]key.Binding{{k.Details, k.Add, k.Edit}, {k.Toggle, k.Rotate, k.Delete}, {k.Listen, k.ListenNew, k.OpenByID}},
		k.table.FullHelp()...)
}
