package transactions

import (
	"charm.land/bubbles/v2/key"

	"cardterm/ui/keymap"
	"cardterm/ui/table"
)

// keyMap are the transaction screen's own bindings; the table adds its
// movement and filter keys.
type keyMap struct {
	Filters, Clear, Next, Prev, Refresh, Export key.Binding
	// SaveView opens the filters with a name to save them under.
	SaveView key.Binding
	// Note and Tag are the holder's notes (notes.go).
	Note, Tag key.Binding
	table     table.KeyMap
}

// newKeyMap builds the bindings; without a folder to keep notes in (a
// customer-approved session keeps none on the agent's machine) t and #
// are disabled, so the help does not offer them.
func newKeyMap(notesKept bool) keyMap {
	k := keyMap{
		Filters:  keymap.Bind("transactions.filters"),
		Clear:    keymap.Bind("transactions.clear"),
		Next:     keymap.Bind("transactions.next"),
		Prev:     keymap.Bind("transactions.previous"),
		Refresh:  keymap.Bind("transactions.reload"),
		Export:   keymap.Bind("transactions.export"),
		SaveView: keymap.Bind("transactions.save-view"),
		Note:     keymap.Bind("transactions.note"),
		Tag:      keymap.Bind("transactions.tag"),
		table:    table.Keys(),
	}
	k.Note.SetEnabled(notesKept)
	k.Tag.SetEnabled(notesKept)
	return k
}

func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.table.Up, k.table.Down, k.Filters, k.Next, k.Prev, k.Export, k.table.Filter}
}
func (k keyMap) FullHelp() [][]key.Binding {
	return append([][]key.Binding{{k.Filters, k.SaveView, k.Clear, k.Next, k.Prev, k.Refresh, k.Export}, {k.Note, k.Tag}}, k.table.FullHelp()...)
}
