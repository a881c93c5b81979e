package transactions

import (
	"charm.land/bubbles/v2/key"

	"cardterm/ui/table"
)

// keyMap are the transaction screen's own bindings; the table adds its
// movement and filter keys.
type keyMap struct {
	Filters, Clear, Next, Prev, Refresh, Export key.Binding
	// Note and Tag are the holder's notes (notes.go).
	Note, Tag key.Binding
	table     table.KeyMap
}

func newKeyMap() keyMap {
	return keyMap{
		Filters: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "filters")),
		Clear:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "clear filters")),
		Next:    key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "next page")),
		Prev:    key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "previous page")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reload page")),
		Export:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "export")),
		Note:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "note and tags")),
		Tag:     key.NewBinding(key.WithKeys("#"), key.WithHelp("#", "list a tag")),
		table:   table.Keys(),
	}
}

func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.table.Up, k.table.Down, k.Filters, k.Next, k.Prev, k.table.Filter}
}
func (k keyMap) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{k.Filters, k.Clear, k.Next, k.Prev, k.Refresh, k.Export}, {k.Note, k.Tag}}, k.table.FullHelp()...)
}
