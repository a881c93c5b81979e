package webhooks

import (
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
		Details:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "open")),
		Add:       key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "add")),
		Edit:      key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit")),
		Toggle:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "toggle active")),
		Rotate:    key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "rotate key")),
		Delete:    key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "delete")),
		Close:     key.NewBinding(key.WithKeys("esc", "enter"), key.WithHelp("enter/esc", "close")),
		CopyKey:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy the key")),
		Listen:    key.NewBinding(key.WithKeys("l"), key.WithHelp("l", "point at the in-app listener")),
		ListenNew: key.NewBinding(key.WithKeys("L"), key.WithHelp("L", "new webhook for the in-app listener")),
		OpenByID:  key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "find a webhook by id")),
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
