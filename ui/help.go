package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"cardterm/ui/layer"
	"cardterm/ui/sanitize"
)

// contextKeys is the key map of whatever has the keys now: the top
// layer, the nav, or the active screen.
func (r *Root) contextKeys() help.KeyMap {
	top, rank, open := r.topLayer()
	switch {
	case open && rank > layer.Panel:
		return top.KeyMap()
	case r.focusNav:
		return r.navKeys
	case open:
		return top.KeyMap()
	}
	if s := r.Active(); s != nil {
		return s.KeyMap()
	}
	return nil
}

// renderFooter draws the key hints: the context's short help first, then the
// global keys, cut to the width.
func (r *Root) renderFooter() string {
	top, rank, open := r.topLayer()
	if p, ok := top.(*goToPrompt); ok {
		return FitLine(r.renderGoTo(p), r.width)
	}
	var bs []key.Binding
	if open && (rank == layer.Sheet || rank == layer.Inspector) {
		bs = top.KeyMap().ShortHelp()
	} else {
		bs = r.footerKeys(open && rank >= layer.Dialog)
	}
	k := newFrameKey()
	k.num(r.width)
	k.bindings(bs)
	return r.footerCache.get(k.h, func() string {
		return FitLine(r.fitFooter(bs, r.width), r.width)
	})
}

// footerKeys is the context's keys then the global ones that work; the
// help key is drawn last (fitFooter), after "…" when the context's keys
// do not all fit, so the footer always says how to reach every other
// key. A modal layer (a dialog, the switcher) shows its keys alone.
func (r *Root) footerKeys(modal bool) []key.Binding {
	var bs []key.Binding
	var helpKey key.Binding
	switch {
	case modal:
	case r.capturing():
		// A text field has the keys: ? and q would type, so the
		// footer names only what works there.
		helpKey = r.keys.HelpAnywhere
	default:
		helpKey = r.keys.Help
	}
	if km := r.contextKeys(); km != nil {
		bs = append(bs, km.ShortHelp()...)
	}
	switch {
	case modal:
	case r.capturing():
		bs = append(bs, r.keys.Interrupt, r.keys.Profiles)
	case !r.signedIn:
		bs = append(bs, r.keys.Quit, r.keys.Profiles)
	default:
		global := r.keys
		global.Help.SetEnabled(false) // drawn last
		if r.approved != nil {
			// What an approved session is opened for: keeping evidence.
			bs = appendUnshadowed(bs, []key.Binding{global.Keep})
		}
		bs = appendUnshadowed(bs, global.ShortHelp())
	}
	if helpKey.Enabled() && len(helpKey.Keys()) > 0 {
		bs = append(bs, helpKey)
	}
	return bs
}

// fitFooter lays the bindings out on one line of width cells, in order,
// the last one (the help key, when there is one) always shown: when the
// others do not all fit, as many as fit are followed by "…" and the last,
// so no key is dropped silently and no separator is left dangling.
func (r *Root) fitFooter(bs []key.Binding, width int) string {
	var items []string
	for _, b := range bs {
		if b.Enabled() && b.Help().Key != "" {
			items = append(items, r.st.KeyHint.Render(b.Help().Key)+" "+r.st.KeyDesc.Render(b.Help().Desc))
		}
	}
	if len(items) == 0 {
		return ""
	}
	sep := r.st.Muted.Render(" • ")
	const sepWidth = 3
	total := 0
	for i, it := range items {
		if i > 0 {
			total += sepWidth
		}
		total += CellWidth(it)
	}
	if total <= width {
		return strings.Join(items, sep)
	}
	last := items[len(items)-1]
	tail := r.st.Muted.Render("…") + " " + last
	room := width - CellWidth(tail)
	var b strings.Builder
	used := 0
	for _, it := range items[:len(items)-1] {
		w := CellWidth(it) + sepWidth
		if used+w > room {
			break
		}
		b.WriteString(it + sep)
		used += w
	}
	if used == 0 && room < 0 {
		// Not even "… ? help" fits: the help key alone, cut.
		return FitLine(last, width)
	}
	return b.String() + tail
}

// appendUnshadowed appends the global bindings whose keys the context does
// not already describe, so the footer never names one key twice.
func appendUnshadowed(context, global []key.Binding) []key.Binding {
	taken := map[string]bool{}
	for _, b := range context {
		if b.Enabled() {
			for _, k := range b.Keys() {
				taken[k] = true
			}
		}
	}
	out := context
	for _, g := range global {
		shadowed := false
		for _, k := range g.Keys() {
			shadowed = shadowed || taken[k]
		}
		if !shadowed {
			out = append(out, g)
		}
	}
	return out
}

// renderHelp draws the full help for the body area: the active screen's keys
// then the global keys, from the same key maps that drive routing.
func (r *Root) renderHelp(w, h, offset int) string {
	var b strings.Builder
	section := func(title string, km help.KeyMap) {
		if km == nil {
			return
		}
		groups := km.FullHelp()
		if len(groups) == 0 {
			return
		}
		b.WriteString(r.st.Subtitle.Render(title))
		b.WriteString("\n")
		for _, l := range r.helpColumns(groups, w-2) {
			b.WriteString("  " + l + "\n")
		}
		b.WriteString("\n")
	}
	b.WriteString(r.st.Title.Render("Help") + "\n\n")
	if s := r.Active(); s != nil {
		section(sanitize.Text(s.Title()), r.bodyKeys())
	}
	if r.bodyCaptures() {
		// A text field has the keys: the single-letter keys type there, so
		// the help lists only the keys that still work (f1, ctrl+c, ...).
		section("Global (while typing)", r.typingKeys())
	} else {
		section("Global", r.globalHelpKeys())
	}
	if r.signedIn && len(r.screens) > 0 {
		section("Screens", r.screenKeys())
		section("Navigation (tab)", r.navKeys)
	}
	if r.opts.Version != "" {
		b.WriteString(r.st.Muted.Render("cardterm " + ansi.Strip(sanitize.Text(r.opts.Version))))
	}
	return FitBlock(scrolledHelp(b.String(), offset, h), w, h)
}

// screenKeys lists every screen of the navigation with the key that opens
// it: its number, or, past the tenth, "·" as the navigation pane marks it
// and the way there (tab, move to it, enter) after its name, so a screen
// without a number key is still found from the help and the key column
// stays as wide as a number.
func (r *Root) screenKeys() help.KeyMap {
	bindings := make([]key.Binding, len(r.screens))
	for i, s := range r.screens {
		k, title := r.numberKeyAt(i), sanitize.Text(s.Title())
		if k == "" {
			k, title = "·", title+" (tab ↓ enter)"
		}
		bindings[i] = key.NewBinding(key.WithKeys(k), key.WithHelp(k, title))
	}
	return staticKeyMap(bindings)
}

// typingKeys are the global keys that work while a text field has the
// keys (ARCHITECTURE.md, "The path of a key press").
func (r *Root) typingKeys() help.KeyMap {
	return staticKeyMap{r.keys.HelpAnywhere, r.keys.Interrupt, r.keys.Profiles, r.keys.Presenter, r.keys.Suspend}
}

// staticKeyMap is a fixed list of bindings shown as one group.
type staticKeyMap []key.Binding

// ShortHelp implements help.KeyMap.
func (m staticKeyMap) ShortHelp() []key.Binding { return m }

// FullHelp implements help.KeyMap.
func (m staticKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{m} }

// helpColumns lays the enabled bindings of groups out in as many columns as
// fit in width, filling each column top to bottom, each as wide as its own
// entries, so every key shows on a narrow terminal too.
func (r *Root) helpColumns(groups [][]key.Binding, width int) []string {
	var keys, descs []string
	for _, g := range groups {
		for _, b := range g {
			if b.Enabled() && b.Help().Key != "" {
				keys, descs = append(keys, b.Help().Key), append(descs, b.Help().Desc)
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	const gap = 4
	// layout gives the rows and each column's key and description widths
	// for n columns, and the width they take in all.
	layout := func(n int) (rows int, kw, dw []int, total int) {
		rows = (len(keys) + n - 1) / n
		kw, dw = make([]int, n), make([]int, n)
		for i := range keys {
			c := i / rows
			kw[c] = max(kw[c], ansi.StringWidth(keys[i]))
			dw[c] = max(dw[c], ansi.StringWidth(descs[i]))
		}
		for c := range n {
			total += kw[c] + 1 + dw[c]
		}
		return rows, kw, dw, total + gap*(n-1)
	}
	n := 1
	for try := len(keys); try > 1; try-- {
		if _, _, _, total := layout(try); total <= width {
			n = try
			break
		}
	}
	rows, kw, dw, _ := layout(n)
	lines := make([]string, rows)
	for i := range keys {
		c := i / rows
		cell := r.st.KeyHint.Render(padRight(keys[i], kw[c])) + " " + r.st.KeyDesc.Render(padRight(descs[i], dw[c]))
		if c > 0 {
			cell = strings.Repeat(" ", gap) + cell
		}
		lines[i%rows] += cell
	}
	return lines
}

// padRight pads s with spaces to width cells.
func padRight(s string, width int) string {
	return s + strings.Repeat(" ", max(width-ansi.StringWidth(s), 0))
}

// capturing reports whether a text field or a filter has the keys now
// (global single-letter keys then go to it): the top layer's, or the
// active screen's.
func (r *Root) capturing() bool {
	if top, rank, ok := r.topLayer(); ok && rank > layer.Panel {
		return layer.Captures(top)
	}
	return !r.focusNav && r.bodyCaptures()
}

// bodyPanel is the screen's own layer on top of it (a form, a panel),
// under any of the root's.
func (r *Root) bodyPanel() (layer.Layer, bool) {
	var panel layer.Layer
	r.layers.Each(r.owner(), func(l layer.Layer, rank layer.Rank) bool {
		if rank == layer.Panel {
			panel = l
		}
		return panel == nil
	})
	return panel, panel != nil
}

// bodyCaptures reports whether the body (the screen's top panel, else
// the screen) has a text field or a filter with the keys.
func (r *Root) bodyCaptures() bool {
	if panel, ok := r.bodyPanel(); ok {
		return layer.Captures(panel)
	}
	s := r.Active()
	return s != nil && s.CapturesKeys()
}

// bodyKeys is the key map of the body: the screen's top panel, else the
// screen's own.
func (r *Root) bodyKeys() help.KeyMap {
	if panel, ok := r.bodyPanel(); ok {
		return panel.KeyMap()
	}
	return r.Active().KeyMap()
}
