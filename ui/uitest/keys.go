package uitest

import (
	"os"
	"path/filepath"
	"testing"

	"cardterm/ui/keymap"
)

// UseKeys puts a keys file holding text in force for the test, as the
// app does with the user's file at start, and the built-in keys back
// after it.
func UseKeys(t testing.TB, text string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keys.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	file, err := keymap.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	keymap.Use(file)
	t.Cleanup(func() { keymap.Use(nil) })
}
