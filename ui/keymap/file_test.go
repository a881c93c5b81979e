package keymap_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/ui/keymap"
)

// A keys file is refused with its file, line and action when it names an
// unknown action, a key that is not one, or puts two actions of one context
// (or a screen's and a global one) on one key.
func TestKeysFileRefusals(t *testing.T) {
	cases := []struct {
		name, text, want string
	}{
		{"unknown action", "card.freeze: F\ncard.frieze: x\n", "keys.yaml:2: card.frieze: no such action"},
		{"two on one key", "# mine\ncard.freeze: F\ncard.order: F\n",
			`keys.yaml:3: card.order: key "F" is card.freeze's already (line 2), in the same context`},
		{"two on one key, the later first by name", "card.order: F\ncard.freeze: F\n",
			`keys.yaml:2: card.freeze: key "F" is card.order's already (line 1), in the same context`},
		{"on a default key", "card.freeze: n\n", `keys.yaml:1: card.freeze: key "n" is card.order's already (by default)`},
		{"on a global key", "card.freeze: q\n", `key "q" is global.quit's already (by default)`},
		{"a global on a screen's key", "global.help: f\n", `key "f" is card.freeze's already (by default)`},
		{"not a key", "card.freeze: ctrl+\n", `"ctrl+" is not a key name`},
		{"named twice", "card.freeze: F\ncard.freeze: G\n", "keys.yaml:2: card.freeze: bound already on line 1"},
		{"a mapping", "card.freeze: {a: b}\n", "keys.yaml:1: card.freeze: give a key or a list of keys"},
		{"not lines", "- card.freeze\n", "keys.yaml:1: (file): expected lines of action: key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "keys.yaml")
			if err := os.WriteFile(path, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := keymap.Load(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Load: %v, want %q", err, tc.want)
			}
		})
	}
}

// A good file puts its keys in force for Bind and says where they come
// from; the keys other actions share by design (r, ctrl+c) stay allowed;
// Use(nil) restores the defaults; a missing file is no file.
func TestKeysFileInForce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.yaml")
	if err := os.WriteFile(path, []byte("# mine\ncard.freeze: F\nglobal.help: [\"?\", f10]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file, err := keymap.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	keymap.Use(file)
	t.Cleanup(func() { keymap.Use(nil) })
	freeze := keymap.Bind("card.freeze")
	if got := freeze.Keys(); len(got) != 1 || got[0] != "F" || freeze.Help().Key != "F" {
		t.Fatalf("card.freeze keys %v help %q", got, freeze.Help().Key)
	}
	if help := keymap.Bind("global.help"); help.Help().Key != "?/f10" {
		t.Fatalf("global.help help key %q", help.Help().Key)
	}
	if action, _ := keymap.Lookup("card.freeze"); action.Source != path+":2" {
		t.Fatalf("source %q", action.Source)
	}
	if action, ok := keymap.Of(freeze, "card"); !ok || action.Name != "card.freeze" {
		t.Fatalf("Of: %+v %v", action, ok)
	}
	keymap.Use(nil)
	if got := keymap.Bind("card.freeze").Keys(); got[0] != "f" {
		t.Fatalf("defaults not restored: %v", got)
	}
	if file, err := keymap.Load(filepath.Join(t.TempDir(), "none.yaml")); file != nil || err != nil {
		t.Fatalf("a missing file: %v %v", file, err)
	}
}

// Every registered action has words for the help and the palette, and a
// name of the form context.action.
func TestEveryActionIsNamedAndWorded(t *testing.T) {
	for _, a := range keymap.All() {
		if !strings.Contains(a.Name, ".") || a.Help == "" || a.Title == "" || len(a.Keys) == 0 {
			t.Errorf("action %+v lacks a name, words or keys", a)
		}
	}
}
