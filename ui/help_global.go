package ui

import (
	"slices"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// globalHelpKeys is the Global section of the help: the global keys that
// do something here, less those the screen's section names already (its
// own r, y, /, enter), so the sheet says each key once, in the group
// where it acts, as the footer does (appendUnshadowed).
func (r *Root) globalHelpKeys() help.KeyMap {
	// y and o act through the screen (Copier, Opener): the help offers them
	// only where they do something.
	global := r.keys
	if _, ok := r.bodyOffering(func(of any) bool { _, ok := of.(Copier); return ok }).(Copier); !ok {
		global.Copy.SetEnabled(false)
	}
	if _, ok := r.Active().(Opener); !ok {
		global.Open.SetEnabled(false)
	}
	global.Inspect.SetEnabled(r.canInspect())
	global.Keep.SetEnabled(r.approved != nil)
	if !r.signedIn {
		// No navigation, no session: the number keys, tab's focus, sign-out
		// and hiding the navigation do nothing yet; r works in the support
		// console only.
		global.Jump.SetEnabled(false)
		global.Focus.SetEnabled(false)
		global.SignOut.SetEnabled(false)
		global.Nav.SetEnabled(false)
		global.Refresh.SetEnabled(r.Supporting())
	}
	if r.Active() == nil {
		return global
	}
	var body []key.Binding
	for _, group := range r.bodyKeys().FullHelp() {
		body = append(body, group...)
	}
	var groups [][]key.Binding
	for _, group := range global.FullHelp() {
		groups = append(groups, unshadowedBy(body, group))
	}
	return KeyMapFunc{Short: global.ShortHelp, Full: func() [][]key.Binding { return groups }}
}

// unshadowedBy is the bindings of group none of whose keys an enabled
// binding of context runs (a new slice: context's is left alone).
func unshadowedBy(context, group []key.Binding) []key.Binding {
	return appendUnshadowed(slices.Clip(context), group)[len(context):]
}
