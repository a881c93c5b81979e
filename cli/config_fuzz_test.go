package cli

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"cardterm/domain/fileerror"
)

// The profile file is read by parseConfig field by field. Whatever the
// file holds, it answers a config or a *fileerror.Error naming the file and a
// line; a config it accepts has valid profile names, no duplicate, a
// default that exists, and survives being saved (yaml.Marshal, as
// saveConfig writes it) and read again unchanged.
func FuzzParseConfig(f *testing.F) {
	for _, seed := range []string{
		"",
		"default: acme\nprofiles:\n  - name: acme\n    base_url: https://gw.example\n    client_key: ck_live_123\n    read_only: true\n    timeout: 20s\n    start: support\n",
		"profiles:\n  - name: a\n  - name: b\n    us: true\n    environment: sandbox\n",
		"profiles:\n  - name: a\n  - name: a\n",
		"default: nope\nprofiles: []\n",
		"profiles:\n  - name: a\n    secret_key: sk_1\n",
		"profiles:\n  - name: a\n    timeout: -1s\n",
		"profiles: {a: 1}\n",
		"[1, 2]\n",
		"profiles:\n  - name: \"\\u202eevil\"\n",
		"a: &x [*x]\n",
		"profiles:\n  - name: a\n    client_id: \"\\x1b]52;c;x\\x07\"\n",
		"\tbad: indent\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := parseConfig("config.yaml", data)
		if err != nil {
			var ce *fileerror.Error
			if !errors.As(err, &ce) || ce.Line < 0 || !strings.HasPrefix(err.Error(), "config.yaml:") {
				t.Fatalf("error %T %q does not name the file and a line", err, err)
			}
			return
		}
		seen := map[string]bool{}
		for _, p := range c.Profiles {
			if checkProfileName(p.Name) != nil || seen[p.Name] {
				t.Fatalf("accepted profile %+v", p)
			}
			// Every value kept is one its row of the settings table
			// accepts, as that row writes it.
			for key, v := range p.values {
				row := settingOfKey(key)
				if row == nil {
					t.Fatalf("accepted unknown key %q in %+v", key, p)
				}
				if again, err := row.parse(v); err != nil || again != v {
					t.Fatalf("kept %s %q, which its row reads as %q (%v)", key, v, again, err)
				}
			}
			seen[p.Name] = true
		}
		if c.Default != "" && !seen[c.Default] {
			t.Fatalf("default %q names no profile", c.Default)
		}
		saved, err := yaml.Marshal(c)
		if err != nil {
			t.Fatalf("an accepted config cannot be saved: %v", err)
		}
		again, err := parseConfig("config.yaml", saved)
		if err != nil {
			t.Fatalf("saved config is refused: %v\n%s", err, saved)
		}
		if !reflect.DeepEqual(normalize(c), normalize(again)) {
			t.Fatalf("saved and read again, the config changed:\n%+v\n%+v", c, again)
		}
	})
}

// normalize makes an empty profile list and none the same.
func normalize(c *config) config {
	out := *c
	if len(out.Profiles) == 0 {
		out.Profiles = nil
	}
	return out
}
