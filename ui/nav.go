package ui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"cardterm/ui/keymap"
	"cardterm/ui/sanitize"
)

// navKeyMap is the keys of the navigation pane while it has focus.
type navKeyMap struct {
	Up, Down, Open key.Binding
	// Back names the global focus and back keys, which leave the pane
	// (globalKey), for the footer; the help lists them with the global
	// keys already.
	Back key.Binding
}

// newNavKeys builds the pane's keys from the registry (nav.*) and its
// way back from global's focus and back keys in force.
func newNavKeys(global GlobalKeyMap) navKeyMap {
	keys := append(slices.Clone(global.Focus.Keys()), global.Back.Keys()...)
	return navKeyMap{
		Up:   keymap.Bind("nav.up"),
		Down: keymap.Bind("nav.down"),
		Open: keymap.Bind("nav.open"),
		Back: key.NewBinding(key.WithKeys(keys...),
			key.WithHelp(global.Focus.Help().Key+"/"+global.Back.Help().Key, "back to body")),
	}
}

// ShortHelp implements help.KeyMap.
func (k navKeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Down, k.Open, k.Back} }

// FullHelp implements help.KeyMap: the pane's own keys, each said once
// on the sheet (its way back is the global tab and esc).
func (k navKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Up, k.Down, k.Open}} }

// navWidth is the width of the navigation pane, its right border included.
func (r *Root) navWidth() int {
	if !r.signedIn || len(r.screens) == 0 || r.navHidden {
		return 0
	}
	if r.navCollapsed() {
		return NavShortWidth + 5 // cursor mark, number, space, short name, a space, border
	}
	// A fixed width, whatever the titles: the body's width (and every
	// screen's golden file) does not move when a screen is added. A title
	// longer than navTitleWidth is cut with an ellipsis.
	w := navTitleWidth + 2 + 2 + 1 + 1 // number and space, item padding, cursor mark, border
	if r.width > 0 {
		w = min(w, r.width/3)
	}
	return w
}

// navTitleWidth is the room for a title in the navigation: "Transactions".
const navTitleWidth = 12

// navCollapseWidth is the terminal width under which the navigation shows
// short names (ShortTitled), leaving more columns to the body.
const navCollapseWidth = 100

// NavShortWidth is the room for a screen's short name in the narrow
// navigation: "Account", "Wallets".
const NavShortWidth = 7

// ShortTitled is a screen with a short name for the narrow navigation
// ("Trans." for Transactions); a screen without one shows its title, cut.
type ShortTitled interface {
	ShortTitle() string
}

// navTitle is what the navigation calls screen s at the current width.
func (r *Root) navTitle(s Screen) string {
	if !r.navCollapsed() {
		return ansi.Truncate(sanitize.Text(s.Title()), navTitleWidth, "…")
	}
	title := s.Title()
	if short, ok := s.(ShortTitled); ok {
		title = short.ShortTitle()
	}
	return ansi.Truncate(sanitize.Text(title), NavShortWidth, "…")
}

func (r *Root) navCollapsed() bool { return r.width > 0 && r.width < navCollapseWidth }

// renderNav draws the navigation pane, h lines of exactly navWidth cells.
func (r *Root) renderNav(h int) string {
	k := newFrameKey()
	for _, v := range []int{h, r.width, r.active, r.navCur, len(r.screens)} {
		k.num(v)
	}
	k.flag(r.focusNav)
	return r.navCache.get(k.h, func() string { return r.drawNav(h) })
}

// drawNav draws the navigation pane (renderNav caches it).
func (r *Root) drawNav(h int) string {
	w := r.navWidth()
	inner := w - 1
	border := r.st.Border.Render("│")
	lines := make([]string, 0, h)
	for i, s := range r.screens {
		if len(lines) >= h {
			break
		}
		mark := " "
		if r.focusNav && i == r.navCur {
			mark = r.st.Accent.Render("›")
		}
		num := r.numberKeyAt(i)
		if num == "" {
			num = "·" // past the tenth: no number key, reached from here
		}
		title := r.navTitle(s)
		var item string
		switch {
		case r.navCollapsed() && i == r.active:
			item = r.st.NavActive.UnsetPadding().Render(num + " " + title)
		case r.navCollapsed():
			item = r.st.NavNumber.Render(num) + " " + r.st.NavItem.UnsetPadding().Render(title)
		case i == r.active:
			item = r.st.NavActive.Render(num + " " + title)
		default:
			item = r.st.NavItem.Render(r.st.NavNumber.Render(num) + " " + title)
		}
		lines = append(lines, FitLine(mark+item, inner)+border)
	}
	blank := strings.Repeat(" ", max(inner, 0)) + border
	for len(lines) < h {
		lines = append(lines, blank)
	}
	return strings.Join(lines, "\n")
}
