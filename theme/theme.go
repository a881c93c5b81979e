// Package theme holds cardterm's one set of semantic styles. Screens and
// widgets ask for a role (Danger, Badge, TableSelected...), never a colour, so
// light and dark terminals and NO_COLOR are handled here alone.
package theme

import (
	"image/color"
	"sync"

	"charm.land/lipgloss/v2"
)

// Tone is the meaning of a coloured mark: badges, notices and states use it.
type Tone int

// Tones, from neutral to alarming.
const (
	ToneNeutral Tone = iota
	ToneInfo
	ToneOK
	ToneWarn
	ToneDanger
)

// Styles is the semantic style set. Build it with New; rebuild it when the
// terminal's background colour becomes known.
type Styles struct {
	// Theme is the theme the styles come from, so they can be rebuilt
	// for another background.
	Theme   Theme
	IsDark  bool
	NoColor bool
	// WholeText says the frames are read out line by line (the accessible
	// mode), not looked at: a table then cuts no cell, it wraps a row
	// too long for the width (ui/table), since a reader has no other way
	// to learn the rest of a name or a URL.
	WholeText bool

	Title      lipgloss.Style // screen and section titles
	Subtitle   lipgloss.Style
	Label      lipgloss.Style // field labels in detail views
	Value      lipgloss.Style // field values
	Muted      lipgloss.Style // secondary text, placeholders, hints
	Accent     lipgloss.Style // highlights, links
	Link       lipgloss.Style
	KeyHint    lipgloss.Style // a key in the footer ("f")
	KeyDesc    lipgloss.Style // its description ("freeze")
	Border     lipgloss.Style // panes and boxes
	Panel      lipgloss.Style // a bordered box around a detail view
	Dialog     lipgloss.Style // the confirmation dialog box
	DialogText lipgloss.Style

	NavItem    lipgloss.Style
	NavActive  lipgloss.Style
	NavNumber  lipgloss.Style
	StatusBar  lipgloss.Style
	StatusItem lipgloss.Style
	SandboxTag lipgloss.Style // the SANDBOX badge

	TableHeader   lipgloss.Style
	TableRow      lipgloss.Style
	TableSelected lipgloss.Style
	TableMarked   lipgloss.Style

	Input        lipgloss.Style
	InputFocused lipgloss.Style

	Spinner lipgloss.Style

	tones [5]lipgloss.Style // text in each tone
	tags  [5]lipgloss.Style // badges in each tone
	// badges keeps rendered badges (shared by copies of these styles): a
	// list draws the same few states on every row of every frame.
	badges *badgeCache
}

// badgeCache maps a label and tone to its rendered badge.
type badgeCache struct {
	mu sync.Mutex
	m  map[badgeKey]string
}

type badgeKey struct {
	label string
	tone  Tone
}

// maxCachedBadges bounds the cache; labels past it are rendered each time.
const maxCachedBadges = 512

// New builds the styles of the default theme (Auto) for a dark or light
// background.
func New(isDark, noColor bool) Styles { return NewWith(Auto, isDark, noColor) }

// NewWith builds the styles of a theme for a dark or light background.
// With noColor (the NO_COLOR convention) no colour is set at all, whatever
// the theme; emphasis uses bold, reverse and the text of badges, so
// nothing depends on colour to be understood.
func NewWith(theme Theme, isDark, noColor bool) Styles {
	if theme.palette == nil {
		theme = Auto
	}
	p := theme.palette(isDark)
	s := Styles{Theme: theme, IsDark: isDark, NoColor: noColor, badges: &badgeCache{m: map[badgeKey]string{}}}
	fg := func(c color.Color) lipgloss.Style {
		if noColor {
			return lipgloss.NewStyle()
		}
		return lipgloss.NewStyle().Foreground(c)
	}
	s.Title = fg(p.accent).Bold(true)
	s.Subtitle = fg(p.fg).Bold(true)
	s.Label = fg(p.muted)
	s.Value = fg(p.fg)
	s.Muted = fg(p.muted)
	s.Accent = fg(p.accent)
	s.Link = fg(p.info).Underline(true)
	s.KeyHint = fg(p.accent).Bold(true)
	s.KeyDesc = fg(p.muted)
	s.Border = fg(p.border)
	s.Panel = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(0, 1)
	s.Dialog = lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).Padding(1, 2)
	if !noColor {
		s.Panel = s.Panel.BorderForeground(p.border)
		s.Dialog = s.Dialog.BorderForeground(p.accent)
	}
	s.DialogText = fg(p.fg)

	s.NavItem = fg(p.fg).Padding(0, 1)
	s.NavActive = fg(p.accent).Bold(true).Padding(0, 1).Reverse(noColor)
	s.NavNumber = fg(p.muted)
	s.StatusBar = lipgloss.NewStyle()
	if !noColor {
		s.StatusBar = s.StatusBar.Background(p.barBG).Foreground(p.barFG)
	}
	s.StatusItem = s.StatusBar.Padding(0, 1)
	s.SandboxTag = lipgloss.NewStyle().Bold(true).Padding(0, 1)
	if noColor {
		s.SandboxTag = s.SandboxTag.Reverse(true)
	} else {
		s.SandboxTag = s.SandboxTag.Background(p.warn).Foreground(p.sandboxText)
	}

	s.TableHeader = fg(p.muted).Bold(true)
	s.TableRow = fg(p.fg)
	s.TableSelected = lipgloss.NewStyle().Bold(true)
	if noColor {
		s.TableSelected = s.TableSelected.Reverse(true)
	} else {
		s.TableSelected = s.TableSelected.Background(p.selBG).Foreground(p.selFG)
	}
	s.TableMarked = fg(p.markFG).Bold(true)

	s.Input = lipgloss.NewStyle().Border(lipgloss.NormalBorder()).Padding(0, 1)
	s.InputFocused = s.Input.Border(lipgloss.ThickBorder())
	if !noColor {
		s.Input = s.Input.BorderForeground(p.border)
		s.InputFocused = s.InputFocused.BorderForeground(p.accent)
	}

	s.Spinner = fg(p.accent)

	toneColors := [5]color.Color{p.muted, p.info, p.ok, p.warn, p.danger}
	for t, c := range toneColors {
		s.tones[t] = fg(c)
		tag := lipgloss.NewStyle().Bold(true).Padding(0, 1)
		if noColor {
			tag = tag.Reverse(true)
		} else {
			tag = tag.Background(c).Foreground(p.badgeText)
		}
		s.tags[t] = tag
	}
	return s
}

// Text styles plain text in a tone (notices, inline errors).
func (s Styles) Text(t Tone) lipgloss.Style { return s.tones[t] }

// Badge renders a short state label ("ACTIVE", "VERIFIED") as a tag in a
// tone, rendering each label and tone once.
func (s Styles) Badge(label string, t Tone) string {
	if s.badges == nil { // Styles not made by New
		return s.tags[t].Render(label)
	}
	k := badgeKey{label, t}
	s.badges.mu.Lock()
	out, ok := s.badges.m[k]
	s.badges.mu.Unlock()
	if ok {
		return out
	}
	out = s.tags[t].Render(label)
	s.badges.mu.Lock()
	if len(s.badges.m) < maxCachedBadges {
		s.badges.m[k] = out
	}
	s.badges.mu.Unlock()
	return out
}
