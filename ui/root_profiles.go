package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui/sanitize"
)

// The profile switcher: the Profiles key opens a list of the profiles;
// choosing one signs out (as S does) and quits the program with SwitchTo
// set, so main builds the next app (client, gateway, sandbox tenant) on
// that profile. The root does no IO for it.

// profileSwitcherKeyMap is the keys of the open switcher.
type profileSwitcherKeyMap struct {
	Up, Down, Choose, Cancel key.Binding
}

func newProfileSwitcherKeys() profileSwitcherKeyMap {
	return profileSwitcherKeyMap{
		Up:     UpKey(),
		Down:   DownKey(),
		Choose: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "switch")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
	}
}

// ShortHelp implements help.KeyMap.
func (k profileSwitcherKeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Choose, k.Cancel, k.Up, k.Down}
}

// FullHelp implements help.KeyMap.
func (k profileSwitcherKeyMap) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// profileSwitcher is the open switcher.
type profileSwitcher struct {
	names   []string
	current string
	cursor  int
	keys    profileSwitcherKeyMap
}

// hasOtherProfile reports whether there is a profile to switch to.
func hasOtherProfile(opts RootOptions) bool {
	for _, name := range opts.Profiles {
		if name != opts.Profile {
			return true
		}
	}
	return false
}

// openProfiles shows the switcher, its cursor on the profile in use.
func (r *Root) openProfiles() {
	p := &profileSwitcher{names: r.opts.Profiles, current: r.opts.Profile, keys: newProfileSwitcherKeys()}
	for i, name := range p.names {
		if name == p.current {
			p.cursor = i
		}
	}
	r.switcher, r.showHelp, r.showLog = p, false, false
}

// updateProfileSwitcher handles a key while the switcher is open.
func (r *Root) updateProfileSwitcher(msg tea.KeyPressMsg) tea.Cmd {
	p := r.switcher
	switch {
	case key.Matches(msg, p.keys.Up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(msg, p.keys.Down):
		p.cursor = min(p.cursor+1, len(p.names)-1)
	case key.Matches(msg, p.keys.Cancel):
		r.switcher = nil
	case key.Matches(msg, p.keys.Choose):
		r.switcher = nil
		name := p.names[p.cursor]
		if name == p.current {
			return Notify(theme.ToneInfo, "already on profile "+sanitize.Text(name))
		}
		r.switchTo = name
		if !r.signedIn || r.signIn == nil {
			return tea.Quit
		}
		// Sign out first, as S does; SignedOutMsg then quits.
		return tea.Batch(Notify(theme.ToneInfo, "signing out to switch to "+sanitize.Text(name)+"…"),
			func() tea.Msg { return SignOutMsg{} })
	}
	return nil
}

// SwitchTo is the profile the user chose in the switcher, once the
// program has quit for it.
func (r *Root) SwitchTo() (string, bool) { return r.switchTo, r.switchTo != "" }

// ProfilesOpen reports whether the switcher is showing.
func (r *Root) ProfilesOpen() bool { return r.switcher != nil }

// view draws the switcher box, at most maxW wide.
func (p *profileSwitcher) view(st *theme.Styles, maxW int) string {
	inner := min(max(maxW-st.Dialog.GetHorizontalFrameSize(), 10), 60)
	lines := []string{st.Title.Render("Switch profile"), ""}
	for i, name := range p.names {
		label := sanitize.Text(name)
		if name == p.current {
			label += " (in use)"
		}
		line := "  " + label
		if i == p.cursor {
			line = st.TableSelected.Render("› " + label)
		}
		lines = append(lines, ansi.Truncate(line, inner, "…"))
	}
	lines = append(lines, "", st.Muted.Render(ansi.Truncate("Switching signs out first.", inner, "…")))
	w := 0
	for _, l := range lines {
		w = max(w, lipgloss.Width(l))
	}
	return st.Dialog.Width(w + st.Dialog.GetHorizontalFrameSize()).Render(strings.Join(lines, "\n"))
}
