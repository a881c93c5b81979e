package guard

import (
	"errors"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"cardterm/domain/fileerror"
)

// Load reads the rules' file; a missing file is no rules.
func Load(path string) (Rules, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Rules{}, nil
	}
	if err != nil {
		return Rules{}, err
	}
	return Parse(path, data)
}

// Parse reads rules from YAML node by node, so that an error names its
// line and field; name is the file's name in messages.
func Parse(name string, data []byte) (Rules, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Rules{}, fileerror.InvalidYAML(name, err)
	}
	var out Rules
	if len(doc.Content) == 0 {
		return out, nil
	}
	root := doc.Content[0]
	bad := func(n *yaml.Node, field, format string, args ...any) error {
		return &fileerror.Error{Path: name, Line: n.Line, Field: field, Reason: fmt.Sprintf(format, args...)}
	}
	if root.Kind != yaml.MappingNode {
		return out, bad(root, "", "must be a mapping with home and rules")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		switch k.Value {
		case "home":
			home := strings.ToUpper(strings.TrimSpace(v.Value))
			if v.Kind != yaml.ScalarNode || !countryRE.Get().MatchString(home) {
				return out, bad(v, "home", "must be a two-letter country code such as FR")
			}
			out.Home = home
		case "rules":
			if v.Kind != yaml.SequenceNode {
				return out, bad(v, "rules", "must be a list of rules")
			}
			for j, n := range v.Content {
				r, err := parseRule(n, fmt.Sprintf("rules[%d]", j), bad)
				if err != nil {
					return out, err
				}
				out.Rules = append(out.Rules, r)
			}
		default:
			return out, bad(k, k.Value, "is not a setting of the rules file (home, rules)")
		}
	}
	for _, r := range out.Rules {
		if r.Abroad && out.Home == "" {
			return out, &fileerror.Error{Path: name, Line: r.Line, Field: "abroad", Reason: "needs home: the country abroad is judged from"}
		}
	}
	return out, nil
}

type badFunc func(n *yaml.Node, field, format string, args ...any) error

// parseRule reads one rule's mapping.
func parseRule(n *yaml.Node, where string, bad badFunc) (Rule, error) {
	r := Rule{Line: n.Line, Action: Notify, Cooldown: DefaultCooldown}
	if n.Kind != yaml.MappingNode {
		return r, bad(n, where, "must be a mapping (name, what it matches, action)")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		field := where + "." + k.Value
		if v.Kind != yaml.ScalarNode {
			return r, bad(v, field, "must be a single value")
		}
		if err := r.set(k.Value, strings.TrimSpace(v.Value)); err != "" {
			return r, bad(v, field, "%s", err)
		}
	}
	switch {
	case r.Name == "":
		return r, bad(n, where+".name", "is required: it is how the log names the rule")
	case r.Within > 0 && r.Declines == 0:
		return r, bad(n, where+".within", "goes with declines: how many within that window")
	case r.Declines > 1 && r.Within == 0:
		return r, bad(n, where+".declines", "needs within: the window they are counted in")
	}
	return r, nil
}

// set takes one field's value; the problem with it, or "".
func (r *Rule) set(field, value string) string {
	switch field {
	case "name":
		r.Name = value
	case "merchant":
		r.Merchant = value
	case "category":
		r.Category = value
	case "country":
		r.Country = strings.ToUpper(value)
		if !countryRE.Get().MatchString(r.Country) {
			return "must be a two-letter country code such as US"
		}
	case "abroad", "alone":
		b, err := strconv.ParseBool(value)
		if err != nil {
			return "must be true or false"
		}
		if field == "abroad" {
			r.Abroad = b
		} else {
			r.Alone = b
		}
	case "amount_over":
		if v, ok := new(big.Rat).SetString(value); !ok || v.Sign() < 0 || strings.ContainsAny(value, "eE/") {
			return "must be an amount such as 500 or 99.90"
		}
		r.AmountOver = value
	case "currency":
		r.Currency = strings.ToUpper(value)
		if len(r.Currency) != 3 {
			return "must be a three-letter currency code such as EUR"
		}
	case "declines":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > 1000 {
			return "must be a count from 1 to 1000"
		}
		r.Declines = n
	case "within", "cooldown":
		d, err := time.ParseDuration(value)
		if err != nil || d <= 0 || d > 31*24*time.Hour {
			return "must be a duration such as 10m, 2h or 30s (at most 744h)"
		}
		if field == "within" {
			r.Within = d
		} else {
			r.Cooldown = d
		}
	case "action":
		if value != Notify && value != Freeze {
			return "must be notify or freeze"
		}
		r.Action = value
	default:
		return "is not a field of a rule (name, merchant, category, country, abroad, amount_over, currency, declines, within, action, alone, cooldown)"
	}
	return ""
}
