package ui

import (
	tea "charm.land/bubbletea/v2"

	"cardterm/theme"
)

// The JSON inspector (i): the active screen's Inspectable record shown in an
// overlay over the body. It takes every key while open except ctrl+c.

// canInspect reports whether the active screen has a record to inspect
// now, so the help offers i only there.
func (r *Root) canInspect() bool {
	in, ok := r.Active().(Inspectable)
	if !ok {
		return false
	}
	_, _, ok = in.Inspect()
	return ok
}

// openInspector opens the overlay on the active screen's record.
func (r *Root) openInspector() tea.Cmd {
	in, ok := r.Active().(Inspectable)
	if !ok {
		return Notify(theme.ToneInfo, "nothing to inspect on this screen")
	}
	title, raw, ok := in.Inspect()
	if !ok {
		return Notify(theme.ToneInfo, "nothing to inspect: select a record first")
	}
	r.inspect = newInspector(title, raw)
	return nil
}

// inspectorKey gives a key to the open overlay; esc closes it.
func (r *Root) inspectorKey(msg tea.KeyPressMsg) tea.Cmd {
	_, bh := r.bodySize()
	closed, cmd := r.inspect.update(msg, bh)
	if closed {
		r.inspect = nil
	}
	return cmd
}
