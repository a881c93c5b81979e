package ui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui/layer"
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

// profileSwitcher is the open switcher, a layer; choose is the root's
// answer to enter on a profile.
type profileSwitcher struct {
	names   []string
	current string
	cursor  int
	keys    profileSwitcherKeyMap
	choose  func(name string) tea.Cmd
	st      *theme.Styles
	width   int
	done    bool
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

// openProfiles shows the switcher, its cursor on the profile in use,
// instead of the help or the notices log.
func (r *Root) openProfiles() {
	p := &profileSwitcher{names: r.opts.Profiles, current: r.opts.Profile, keys: newProfileSwitcherKeys(),
		choose: r.chooseProfile, st: r.st}
	for i, name := range p.names {
		if name == p.current {
			p.cursor = i
		}
	}
	r.closeRootLayers(layer.Sheet)
	r.openRootLayer(p, layer.Prompt)
}

// Update implements layer.Layer.
func (p *profileSwitcher) Update(msg tea.Msg) tea.Cmd {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil
	}
	switch {
	case key.Matches(press, p.keys.Up):
		p.cursor = max(p.cursor-1, 0)
	case key.Matches(press, p.keys.Down):
		p.cursor = min(p.cursor+1, len(p.names)-1)
	case key.Matches(press, p.keys.Cancel):
		p.done = true
	case key.Matches(press, p.keys.Choose):
		p.done = true
		return p.choose(p.names[p.cursor])
	}
	return nil
}

// SetSize implements layer.Layer.
func (p *profileSwitcher) SetSize(width, _ int) { p.width = width }

// View implements layer.Layer: the box, set over the body by the root.
func (p *profileSwitcher) View() string { return p.view(p.st, p.width-2) }

// KeyMap implements layer.Layer.
func (p *profileSwitcher) KeyMap() help.KeyMap { return p.keys }

// Done implements layer.Layer.
func (p *profileSwitcher) Done() bool { return p.done }

// Floats implements layer.Floater.
func (p *profileSwitcher) Floats() {}

// chooseProfile switches to the profile chosen in the switcher.
func (r *Root) chooseProfile(name string) tea.Cmd {
	if name == r.opts.Profile {
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

// SwitchTo is the profile the user chose in the switcher, once the
// program has quit for it.
func (r *Root) SwitchTo() (string, bool) { return r.switchTo, r.switchTo != "" }

// ProfilesOpen reports whether the switcher is showing.
func (r *Root) ProfilesOpen() bool {
	_, ok := layer.Find[*profileSwitcher](&r.layers, r.owner())
	return ok
}

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
