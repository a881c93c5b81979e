// Package layer is the one stack of everything modal: dialogs, the help,
// the JSON inspector, the profile switcher, the go-to prompt, the notices
// log and a screen's forms, panels and views. The root keeps the stack;
// a screen opens a layer by returning a command (ui.OpenLayer), never by
// keeping a field for it.
//
// The contract: the top layer gets keys, the mouse and pastes first and
// alone; it draws over what is under it (nothing under it shows through
// where it draws); the stack sizes it before it draws; its KeyMap is the
// help and the footer while it is on top; and it closes itself by
// reporting Done after the message that ends it (esc closes one layer).
package layer

import (
	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
)

// Layer is one modal thing on the stack.
type Layer interface {
	// Update takes a key, a click, a paste, or a message of the layer's own
	// (a request's answer). Only the top layer gets input.
	Update(msg tea.Msg) tea.Cmd
	// SetSize gives the body's size; the stack calls it before the first
	// View and whenever the size changes.
	SetSize(width, height int)
	// View draws the layer in the size last given: the whole body, or, for
	// a Floater, a box set centred over what is under it.
	View() string
	// KeyMap is what works while the layer is on top, for the footer and
	// the help: the same bindings its Update matches.
	KeyMap() help.KeyMap
	// Done reports that the layer has closed itself; the stack drops it.
	Done() bool
}

// Floater is a layer drawn as a box over what is under it (a dialog, the
// profile switcher) rather than over the whole body.
type Floater interface {
	Layer
	Floats()
}

// Typist is a layer with a text field or a filter that has the keys now,
// so the single-letter global keys (?, q) type there instead.
type Typist interface {
	Layer
	CapturesKeys() bool
}

// Rank is a layer's place in the order of priority, written here once: a
// layer is always above every layer of a lower rank, and above those of
// its own rank opened before it. A screen's form opened while the help
// shows goes under the help; a confirmation goes over both.
type Rank uint8

const (
	// Panel is a screen's own form, panel, view or picker: shown over its
	// screen only, and only while that screen is shown.
	Panel Rank = iota
	// Inspector is the JSON inspector (i).
	Inspector
	// Sheet is the help (?) and the notices log (m).
	Sheet
	// Dialog is a confirmation: it answers before anything else is done.
	Dialog
	// Prompt is the go-to prompt (:) and the profile switcher (ctrl+p).
	Prompt
)

// Captures reports whether l is a Typist whose field has the keys.
func Captures(l Layer) bool {
	t, ok := l.(Typist)
	return ok && t.CapturesKeys()
}

// Floats reports whether l draws a box over what is under it.
func Floats(l Layer) bool {
	_, ok := l.(Floater)
	return ok
}
