package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"cardterm/domain/savedview"
	"cardterm/theme"
	"cardterm/ui/keymap"
)

// The palette is what the go-to prompt lists: the screens, the actions of
// the screen shown (its top panel's, when one is open) and the global
// ones, each with its key in force, matched by any part of its words or
// its action name. Its entries come from the key maps (help.KeyMap
// FullHelp): what the help lists is what the palette lists.

// paletteEntry is one row: a screen to open or a key to press.
type paletteEntry struct {
	// title is the row's words; name is the action's registry name ("" for
	// a screen or a binding outside the registry).
	title, name string
	// keyHelp is the key column; press is the key enter sends.
	keyHelp, press string
	// screen is the navigation position to open, -1 for an action.
	screen int
	// why is the reason the action cannot run now, "" when it can.
	why string
	// view is the saved view to open on the screen, if the row is one.
	view *savedview.View
}

// paletteEntries are the rows for what was typed: the screens whose title
// starts with it, then the screen's actions, the global ones, and the
// screens whose title only holds it.
func (r *Root) paletteEntries(query string) []paletteEntry {
	q := strings.ToLower(strings.TrimSpace(query))
	var entries []paletteEntry
	for i, s := range r.screens {
		if q != "" && strings.HasPrefix(strings.ToLower(s.Title()), q) {
			entries = append(entries, r.screenEntry(i))
		}
	}
	pressed := map[string]bool{}
	for _, entry := range r.viewEntries() {
		if q != "" && entry.matches(q) {
			entries = append(entries, entry)
		}
	}
	for _, entry := range append(r.bodyActionEntries(), r.globalActionEntries()...) {
		if pressed[entry.press] || !entry.matches(q) {
			continue
		}
		pressed[entry.press] = true
		entries = append(entries, entry)
	}
	for i, s := range r.screens {
		title := strings.ToLower(s.Title())
		if q == "" || (!strings.HasPrefix(title, q) && strings.Contains(title, q)) {
			entries = append(entries, r.screenEntry(i))
		}
	}
	return entries
}

// matches reports whether q is part of the entry's words or name.
func (e paletteEntry) matches(q string) bool {
	return q == "" || strings.Contains(strings.ToLower(e.title), q) || strings.Contains(e.name, q)
}

func (r *Root) screenEntry(i int) paletteEntry {
	return paletteEntry{title: "go to " + r.screens[i].Title(), name: "screen", keyHelp: NumberKey(i), screen: i}
}

// bodyActionEntries are the actions of the screen shown, or of its top
// panel, with the reason each disabled one cannot run.
func (r *Root) bodyActionEntries() []paletteEntry {
	s := r.Active()
	if s == nil {
		return nil
	}
	var explainer any = s
	if panel, ok := r.bodyPanel(); ok {
		explainer = panel
	}
	return r.actionEntries(r.bodyKeys().FullHelp(), string(s.ID()), explainer)
}

// globalActionEntries are the root's own keys, less the prompt's own and
// those that only move or type.
func (r *Root) globalActionEntries() []paletteEntry {
	var groups [][]key.Binding
	for _, group := range r.keys.FullHelp() {
		var kept []key.Binding
		for _, b := range group {
			if !sameBinding(b, r.keys.GoTo) && !sameBinding(b, r.keys.Jump) && (r.approved != nil || !sameBinding(b, r.keys.Keep)) {
				kept = append(kept, b)
			}
		}
		groups = append(groups, kept)
	}
	return r.actionEntries(groups, "global", nil)
}

func sameBinding(a, b key.Binding) bool { return a.Help() == b.Help() }

// actionEntries turns key map groups into rows, titled as the registry's
// actions of context (a screen's id, "global"); of explains disabled ones.
func (r *Root) actionEntries(groups [][]key.Binding, context string, of any) []paletteEntry {
	var entries []paletteEntry
	for _, group := range groups {
		for _, b := range group {
			if len(b.Keys()) == 0 || b.Help().Desc == "" {
				continue
			}
			entry := paletteEntry{title: b.Help().Desc, keyHelp: b.Help().Key, press: b.Keys()[0], screen: -1}
			if action, ok := keymap.Of(b, context); ok {
				entry.title, entry.name = action.Title, action.Name
			}
			if !b.Enabled() {
				entry.why, _ = r.disabledReason(b, of)
			}
			entries = append(entries, entry)
		}
	}
	return entries
}

// disabledReason is why a disabled binding does nothing: read-only mode,
// the screen's own reason (ui.Explainer), else that it is not available.
func (r *Root) disabledReason(b key.Binding, of any) (string, theme.Tone) {
	what := b.Help().Desc
	if what == "" {
		what = "this action"
	}
	if r.opts.ReadOnly {
		return "read-only mode: " + what + " is disabled", theme.ToneWarn
	}
	if e, ok := of.(Explainer); ok {
		for _, k := range b.Keys() {
			if why, ok := e.WhyDisabled(k); ok {
				return why, theme.ToneInfo
			}
		}
	}
	return what + " is not available here", theme.ToneInfo
}

// runEntry is enter on a row: a screen opens; an action's key is pressed
// through the normal routing, once the prompt has closed, so it does what
// its key does, confirmation and refusal included.
func (r *Root) runEntry(entry paletteEntry) tea.Cmd {
	if entry.view != nil {
		return r.openView(entry)
	}
	if entry.screen >= 0 {
		return r.navigate(r.screens[entry.screen].ID())
	}
	press := KeyPress(entry.press)
	return func() tea.Msg { return press }
}
