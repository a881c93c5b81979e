package table_test

import (
	"os"
	"path/filepath"
	"testing"

	"cardterm/ui/keymap"
)

// A keys file that moves global.filter moves every table's filter key:
// the help names the key in force, so the table must obey it.
func TestKeysFileMovesTheFilterKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.yaml")
	if err := os.WriteFile(path, []byte("global.filter: F\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file, err := keymap.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	keymap.Use(file)
	t.Cleanup(func() { keymap.Use(nil) })
	tb := newTable(10, 60, 10)
	if tb = press(tb, "/"); tb.Filtering() {
		t.Fatal("/ still starts the filter after the keys file moved it to F")
	}
	if tb = press(tb, "F"); !tb.Filtering() {
		t.Fatal("F does not start the filter")
	}
}
