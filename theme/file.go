package theme

import (
	"fmt"
	"image/color"
	"os"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"go.yaml.in/yaml/v3"

	"cardterm/domain/fileerror"
	"cardterm/domain/lazy"
)

// A theme file sets the colour of some roles over a built-in theme:
//
//	base: dark          # the built-in it starts from; auto when absent
//	accent: "#FF8800"   # #RRGGBB, #RGB, or an ANSI colour 0-255
//	danger: 196

// role is a name a theme file gives one of the palette's fields.
type role struct {
	name  string
	field func(*palette) *color.Color
}

// roles are the names a theme file gives the palette's fields: a slice
// the compiler lays out, where a map would be built before main on every
// start.
var roles = []role{
	{"text", func(p *palette) *color.Color { return &p.fg }},
	{"muted", func(p *palette) *color.Color { return &p.muted }},
	{"subtle", func(p *palette) *color.Color { return &p.subtle }},
	{"border", func(p *palette) *color.Color { return &p.border }},
	{"accent", func(p *palette) *color.Color { return &p.accent }},
	{"info", func(p *palette) *color.Color { return &p.info }},
	{"ok", func(p *palette) *color.Color { return &p.ok }},
	{"warning", func(p *palette) *color.Color { return &p.warn }},
	{"danger", func(p *palette) *color.Color { return &p.danger }},
	{"selection", func(p *palette) *color.Color { return &p.selBG }},
	{"selection-text", func(p *palette) *color.Color { return &p.selFG }},
	{"status-bar", func(p *palette) *color.Color { return &p.barBG }},
	{"status-bar-text", func(p *palette) *color.Color { return &p.barFG }},
	{"marked", func(p *palette) *color.Color { return &p.markFG }},
	{"badge-text", func(p *palette) *color.Color { return &p.badgeText }},
	{"sandbox-text", func(p *palette) *color.Color { return &p.sandboxText }},
}

// roleField is the palette field the role called name sets; ok is false
// when no role is called name.
func roleField(name string) (field func(*palette) *color.Color, ok bool) {
	for _, r := range roles {
		if r.name == name {
			return r.field, true
		}
	}
	return nil, false
}

// Roles lists the roles a theme file may set, sorted.
func Roles() []string {
	names := make([]string, 0, len(roles))
	for _, r := range roles {
		names = append(names, r.name)
	}
	slices.Sort(names)
	return names
}

// Load reads a theme file.
func Load(path string) (Theme, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Theme{}, err
	}
	return Parse(path, data)
}

// hexColour is #RGB or #RRGGBB.
var hexColour = lazy.Regexp{Pattern: `^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$`}

// Parse reads a theme file's text; path names it in messages and is the
// theme's name.
func Parse(path string, data []byte) (Theme, error) {
	var document yaml.Node
	if err := yaml.Unmarshal(data, &document); err != nil {
		return Theme{}, fmt.Errorf("%s: %w", path, err)
	}
	base, colours := Auto, map[string]color.Color{}
	if len(document.Content) > 0 {
		top := document.Content[0]
		if top.Kind != yaml.MappingNode {
			return Theme{}, &fileerror.Error{Path: path, Line: top.Line, Reason: "expected lines of role: colour"}
		}
		for i := 0; i+1 < len(top.Content); i += 2 {
			name, value := top.Content[i], top.Content[i+1]
			if err := take(name, value, &base, colours); err != nil {
				return Theme{}, &fileerror.Error{Path: path, Line: name.Line, Reason: err.Error()}
			}
		}
	}
	return Theme{Name: path, palette: func(isDark bool) palette {
		p := base.palette(isDark)
		for name, c := range colours {
			field, _ := roleField(name) // take kept roles only
			*field(&p) = c
		}
		return p
	}}, nil
}

// take reads one line: the base theme or a role's colour.
func take(name, value *yaml.Node, base *Theme, colours map[string]color.Color) error {
	if name.Value == "base" {
		t, ok := Named(value.Value)
		if !ok {
			return fmt.Errorf("base: %q is not a built-in theme (%s)", value.Value, strings.Join(builtInNames(), ", "))
		}
		*base = t
		return nil
	}
	if _, ok := roleField(name.Value); !ok {
		return fmt.Errorf("%q is not a role (roles: base, %s)", name.Value, strings.Join(Roles(), ", "))
	}
	c, ok := parseColour(value.Value)
	if value.Kind != yaml.ScalarNode || !ok {
		return fmt.Errorf("%s: %q is not a colour (write #RRGGBB, #RGB or an ANSI colour 0-255)", name.Value, value.Value)
	}
	colours[name.Value] = c
	return nil
}

func parseColour(s string) (color.Color, bool) {
	if hexColour.Get().MatchString(s) {
		return lipgloss.Color(s), true
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n <= 255 {
		return lipgloss.Color(s), true
	}
	return nil, false
}

func builtInNames() []string {
	names := make([]string, len(BuiltIn))
	for i, t := range BuiltIn {
		names[i] = t.Name
	}
	return names
}
