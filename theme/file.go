package theme

import (
	"fmt"
	"image/color"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"charm.land/lipgloss/v2"
	"go.yaml.in/yaml/v3"

	"cardterm/domain/fileerror"
)

// A theme file sets the colour of some roles over a built-in theme:
//
//	base: dark          # the built-in it starts from; auto when absent
//	accent: "#FF8800"   # #RRGGBB, #RGB, or an ANSI colour 0-255
//	danger: 196

// roles are the names a theme file gives the palette's fields.
var roles = map[string]func(*palette) *color.Color{
	"text":            func(p *palette) *color.Color { return &p.fg },
	"muted":           func(p *palette) *color.Color { return &p.muted },
	"subtle":          func(p *palette) *color.Color { return &p.subtle },
	"border":          func(p *palette) *color.Color { return &p.border },
	"accent":          func(p *palette) *color.Color { return &p.accent },
	"info":            func(p *palette) *color.Color { return &p.info },
	"ok":              func(p *palette) *color.Color { return &p.ok },
	"warning":         func(p *palette) *color.Color { return &p.warn },
	"danger":          func(p *palette) *color.Color { return &p.danger },
	"selection":       func(p *palette) *color.Color { return &p.selBG },
	"selection-text":  func(p *palette) *color.Color { return &p.selFG },
	"status-bar":      func(p *palette) *color.Color { return &p.barBG },
	"status-bar-text": func(p *palette) *color.Color { return &p.barFG },
	"marked":          func(p *palette) *color.Color { return &p.markFG },
	"badge-text":      func(p *palette) *color.Color { return &p.badgeText },
	"sandbox-text":    func(p *palette) *color.Color { return &p.sandboxText },
}

// Roles lists the roles a theme file may set, sorted.
func Roles() []string {
	names := make([]string, 0, len(roles))
	for name := range roles {
		names = append(names, name)
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
var hexColour = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^#([0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$`) })

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
		for role, c := range colours {
			*roles[role](&p) = c
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
	if _, ok := roles[name.Value]; !ok {
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
	if hexColour().MatchString(s) {
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
