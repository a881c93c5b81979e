package screenkit

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
	"cardterm/ui/form"
	"cardterm/ui/table"
)

// Base is what every screen holds besides its own state: who it is (its
// ID and title), what main gave it, the requests it owns (esc and sign-out
// cancel only these) and the body size the root last gave it. A screen
// embeds it, built in New with NewBase; its SetSize sets Width and Height.
type Base struct {
	ui.Identity
	Deps     Deps
	Requests ui.Owner
	// Width and Height are the body's size in cells.
	Width, Height int
}

// NewBase names a screen and gives it its dependencies and its own
// request owner.
func NewBase(deps Deps, id ui.ScreenID, title string) Base {
	return Base{Identity: ui.Identify(id, title), Deps: deps, Requests: deps.Requests.For(id)}
}

// ToForm hands a message that is not a key press (a cursor blink, a paste,
// a theme change) to the screen's open form; with none open it does nothing.
func ToForm(form *form.Form, msg tea.Msg) tea.Cmd {
	if form == nil {
		return nil
	}
	_, cmd := form.Update(msg)
	return cmd
}

// Selected is the record under the table's cursor, records being the
// table's rows in order; ok is false when no row is selected (an empty
// table, or a filter that shows none).
func Selected[Record any](table *table.Table, records []Record) (selected Record, ok bool) {
	if i, ok := table.Cursor(); ok && i < len(records) {
		return records[i], true
	}
	return selected, false
}

// KeepCursor runs change, which gives the table new rows (or columns and
// rows), and puts the cursor back on the row it was on.
func KeepCursor(table *table.Table, change func()) {
	row, ok := table.Cursor()
	change()
	if ok {
		table.SetCursor(row)
	}
}

// DisabledReasons keeps, per key, why a binding a screen disabled cannot
// work now (no card yet, identity not VERIFIED, five wallets linked): the
// screen's ui.Explainer answers a press of it from here.
type DisabledReasons map[string]string

// Disable disables the binding and keeps why for each of its keys.
func (reasons DisabledReasons) Disable(binding *key.Binding, why string) {
	binding.SetEnabled(false)
	for _, pressed := range binding.Keys() {
		reasons[pressed] = why
	}
}

// DisableInReadOnly disables a screen's mutating bindings in read-only mode
// (support agents): the footer and help then never offer them, and the root
// answers a press of one with its read-only notice.
func DisableInReadOnly(readOnly bool, mutating ...*key.Binding) {
	if !readOnly {
		return
	}
	for _, binding := range mutating {
		binding.SetEnabled(false)
	}
}
