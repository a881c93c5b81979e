package theme

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// palette is the colour of each role a theme sets.
type palette struct {
	fg, muted, subtle, border, accent  color.Color
	info, ok, warn, danger             color.Color
	selBG, selFG, barBG, barFG, markFG color.Color
	// badgeText is the text on a badge; sandboxText on the SANDBOX badge.
	badgeText, sandboxText color.Color
}

// Theme is a set of colours for each role of the styles, for a dark and
// a light background.
type Theme struct {
	// Name is the built-in's name, or the theme file's path.
	Name    string
	palette func(isDark bool) palette
}

// The built-in themes. Auto, dark and light are the default colours
// (Auto following the terminal's background); high contrast uses the
// strongest colours of each background; colour-blind uses the Okabe-Ito
// palette, which the common colour blindnesses (deuteranopia,
// protanopia, tritanopia) still tell apart.
var (
	Auto         = Theme{Name: "auto", palette: defaultPalette}
	Dark         = Theme{Name: "dark", palette: darkPalette}
	Light        = Theme{Name: "light", palette: lightPalette}
	HighContrast = Theme{Name: "high-contrast", palette: highContrastPalette}
	ColourBlind  = Theme{Name: "colour-blind", palette: colourBlindPalette}
)

// BuiltIn lists the built-in themes by name, in the order help lists them.
var BuiltIn = []Theme{Auto, Dark, Light, HighContrast, ColourBlind}

// darkPalette and lightPalette are the default colours whatever the
// terminal's background. Named functions, not function literals, so that
// BuiltIn's copies of Dark and Light are laid out by the compiler rather
// than made before main.
func darkPalette(bool) palette  { return defaultPalette(true) }
func lightPalette(bool) palette { return defaultPalette(false) }

// Named is the built-in theme called name ("color-blind" too).
func Named(name string) (Theme, bool) {
	if name == "color-blind" || name == "okabe-ito" {
		name = ColourBlind.Name
	}
	for _, t := range BuiltIn {
		if t.Name == name {
			return t, true
		}
	}
	return Theme{}, false
}

func defaultPalette(isDark bool) palette {
	ld := lipgloss.LightDark(isDark)
	return palette{
		fg:          ld(lipgloss.Color("#1F2328"), lipgloss.Color("#E6EDF3")),
		muted:       ld(lipgloss.Color("#57606A"), lipgloss.Color("#8B949E")),
		subtle:      ld(lipgloss.Color("#6E7781"), lipgloss.Color("#6E7681")),
		border:      ld(lipgloss.Color("#8C959F"), lipgloss.Color("#484F58")),
		accent:      ld(lipgloss.Color("#6639BA"), lipgloss.Color("#BC8CFF")),
		info:        ld(lipgloss.Color("#0550AE"), lipgloss.Color("#58A6FF")),
		ok:          ld(lipgloss.Color("#116329"), lipgloss.Color("#3FB950")),
		warn:        ld(lipgloss.Color("#7D4E00"), lipgloss.Color("#D29922")),
		danger:      ld(lipgloss.Color("#A40E26"), lipgloss.Color("#F85149")),
		selBG:       ld(lipgloss.Color("#DDF4FF"), lipgloss.Color("#1F3A5F")),
		selFG:       ld(lipgloss.Color("#0A3069"), lipgloss.Color("#F0F6FC")),
		barBG:       ld(lipgloss.Color("#EAEEF2"), lipgloss.Color("#161B22")),
		barFG:       ld(lipgloss.Color("#24292F"), lipgloss.Color("#C9D1D9")),
		markFG:      ld(lipgloss.Color("#8250DF"), lipgloss.Color("#D2A8FF")),
		badgeText:   ld(lipgloss.Color("#FFFFFF"), lipgloss.Color("#0D1117")),
		sandboxText: lipgloss.Color("#FFFFFF"),
	}
}

// highContrastPalette is pure black or white text, and colours at full
// strength against the background.
func highContrastPalette(isDark bool) palette {
	ld := lipgloss.LightDark(isDark)
	black, white := lipgloss.Color("#000000"), lipgloss.Color("#FFFFFF")
	text := ld(black, white)
	return palette{
		fg: text, muted: ld(lipgloss.Color("#303030"), lipgloss.Color("#E0E0E0")),
		subtle: ld(lipgloss.Color("#404040"), lipgloss.Color("#C0C0C0")), border: text,
		accent: ld(lipgloss.Color("#0000C0"), lipgloss.Color("#FFFF00")),
		info:   ld(lipgloss.Color("#0000C0"), lipgloss.Color("#00FFFF")),
		ok:     ld(lipgloss.Color("#006000"), lipgloss.Color("#00FF00")),
		warn:   ld(lipgloss.Color("#6B4000"), lipgloss.Color("#FFD700")),
		danger: ld(lipgloss.Color("#B00000"), lipgloss.Color("#FF6060")),
		selBG:  text, selFG: ld(white, black),
		barBG: text, barFG: ld(white, black),
		markFG:    ld(lipgloss.Color("#800080"), lipgloss.Color("#FF80FF")),
		badgeText: ld(white, black), sandboxText: black,
	}
}

// colourBlindPalette is the Okabe-Ito palette: blue for information,
// bluish green for good, orange for warnings, vermillion for danger,
// reddish purple for the accent.
func colourBlindPalette(isDark bool) palette {
	p := defaultPalette(isDark)
	ld := lipgloss.LightDark(isDark)
	p.accent = ld(lipgloss.Color("#0072B2"), lipgloss.Color("#CC79A7"))
	p.info = ld(lipgloss.Color("#0072B2"), lipgloss.Color("#56B4E9"))
	p.ok = lipgloss.Color("#009E73")
	p.warn = lipgloss.Color("#E69F00")
	p.danger = lipgloss.Color("#D55E00")
	p.markFG = ld(lipgloss.Color("#CC79A7"), lipgloss.Color("#F0E442"))
	p.badgeText = lipgloss.Color("#000000")
	p.sandboxText = lipgloss.Color("#000000")
	return p
}
