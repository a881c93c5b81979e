package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"cardterm/domain/appdirs"
	"cardterm/domain/atomicfile"
	"cardterm/domain/fileerror"
)

// The config file: named profiles, one per gateway and tenant, and the one
// to use by default. It holds no secret: the secret key of a profile lives
// in the OS keyring (keyring.go).

// profile is one named set of settings: a value for some rows of the
// settings table (settings_table.go), by profile key, as setting.parse
// writes them. A missing value means the setting's default (the embedded
// sandbox, its first tenant, 15 s).
type profile struct {
	Name   string
	values map[string]string
}

// get is the profile's value for a profile key, "" when unset.
func (p profile) get(key string) string {
	if key == "" {
		return ""
	}
	return p.values[key]
}

// set keeps a parsed value for a profile key ("" removes it).
func (p *profile) set(key, value string) {
	if value == "" {
		delete(p.values, key)
		return
	}
	if p.values == nil {
		p.values = map[string]string{}
	}
	p.values[key] = value
}

// config is the whole file.
type config struct {
	Default  string    `yaml:"default,omitempty"`
	Profiles []profile `yaml:"profiles"`
}

// find returns the profile called name.
func (c *config) find(name string) (profile, bool) {
	i := slices.IndexFunc(c.Profiles, func(p profile) bool { return p.Name == name })
	if i < 0 {
		return profile{}, false
	}
	return c.Profiles[i], true
}

// names lists the profiles' names in the file's order.
func (c *config) names() []string {
	out := make([]string, len(c.Profiles))
	for i, p := range c.Profiles {
		out[i] = p.Name
	}
	return out
}

// configPath is $XDG_CONFIG_HOME/cardterm/config.yaml (on macOS and
// Windows, their own config directory). It reads the variable on every
// call, so tests and a changed environment are honoured.
func configPath() string { return filepath.Join(appdirs.Config(), "cardterm", "config.yaml") }

// loadConfig reads the config file at path. A missing file is an empty
// config; a malformed one is a *fileerror.Error naming the
// file, the line and the field, so it can be fixed by hand.
func loadConfig(path string) (*config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &config{}, nil
	}
	if err != nil {
		return nil, err
	}
	return parseConfig(path, data)
}

// parseConfig reads the YAML field by field, so that an error names the
// line and the field it is about (yaml's own decoder names neither well).
func parseConfig(path string, data []byte) (*config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fileerror.InvalidYAML(path, err)
	}
	c := &config{}
	if len(doc.Content) == 0 {
		return c, nil // an empty file
	}
	root := doc.Content[0]
	bad := func(n *yaml.Node, field, format string, args ...any) error {
		return &fileerror.Error{Path: path, Line: n.Line, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	if root.Kind != yaml.MappingNode {
		return nil, bad(root, "", "want a mapping with default and profiles")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "default":
			if v.Kind != yaml.ScalarNode {
				return nil, bad(v, "default", "want a profile name")
			}
			c.Default = v.Value
		case "profiles":
			if v.Kind != yaml.SequenceNode {
				return nil, bad(v, "profiles", "want a list of profiles")
			}
			for j, item := range v.Content {
				p, err := parseProfile(item, fmt.Sprintf("profiles[%d]", j), bad)
				if err != nil {
					return nil, err
				}
				if _, dup := c.find(p.Name); dup {
					return nil, bad(item, fmt.Sprintf("profiles[%d].name", j), "%q is used twice", p.Name)
				}
				c.Profiles = append(c.Profiles, p)
			}
		default:
			return nil, bad(k, k.Value, "unknown setting (there are default and profiles)")
		}
	}
	if c.Default != "" {
		if _, ok := c.find(c.Default); !ok {
			return nil, bad(root, "default", "no profile is called %q", c.Default)
		}
	}
	return c, nil
}

// parseProfile reads one profile's mapping, each value by the rules of its
// row in the settings table.
func parseProfile(n *yaml.Node, where string, bad func(*yaml.Node, string, string, ...any) error) (profile, error) {
	var p profile
	if n.Kind != yaml.MappingNode {
		return p, bad(n, where, "want a mapping (%s)", strings.Join(profileKeys(), ", "))
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		field := where + "." + k.Value
		if v.Kind != yaml.ScalarNode {
			return p, bad(v, field, "want a single value")
		}
		if k.Value == "name" {
			p.Name = v.Value
			continue
		}
		if k.Value == "secret_key" || k.Value == "password" {
			return p, bad(k, field, "secrets never go in this file; use `cardterm profile add` (OS keyring) or $%s", secretKeyEnv)
		}
		s := settingOfKey(k.Value)
		if s == nil {
			return p, bad(k, field, "unknown setting (there are %s)", strings.Join(profileKeys(), ", "))
		}
		value, err := s.parse(v.Value)
		if err != nil {
			return p, bad(v, field, "%v", err)
		}
		p.set(k.Value, value)
	}
	if err := checkProfileName(p.Name); err != nil {
		return p, bad(n, where+".name", "%v", err)
	}
	return p, nil
}

// checkProfileName keeps names short and plain: they are typed on command
// lines, completed by shells and used as keyring entries.
func checkProfileName(name string) error {
	if name == "" {
		return errors.New("a profile needs a name")
	}
	if len(name) > 64 {
		return errors.New("a profile name has at most 64 characters")
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return fmt.Errorf("%q: a profile name has letters, digits, '-', '_' and '.' only", name)
		}
	}
	return nil
}

// saveConfig writes the config file atomically (a temporary file in the
// same directory, then a rename), readable by its owner only (0600): a
// crash never leaves half a file, and other users never read the tenants.
func saveConfig(path string, c *config) error {
	data, err := yaml.Marshal(c)
	if err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	// os.CreateTemp makes the file 0600: the file is owner-only from its
	// first byte.
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// MarshalYAML writes the profile's name, then its values in the order of
// the settings table, as they are read back.
func (p profile) MarshalYAML() (any, error) {
	node := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key, value string) {
		node.Content = append(node.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Value: key},
			&yaml.Node{Kind: yaml.ScalarNode, Value: value})
	}
	add("name", p.Name)
	for _, s := range settings {
		if v := p.get(s.key); v != "" {
			add(s.key, v)
		}
	}
	return node, nil
}
