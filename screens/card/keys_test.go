package card_test

import (
	"os"
	"path/filepath"
	"testing"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui/keymap"
)

// A keys file binding card.freeze to F: F opens the freeze confirmation, f
// does nothing, and the footer, the help and the palette show F.
func TestFreezeOnTheUsersKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "keys.yaml")
	if err := os.WriteFile(path, []byte("card.freeze: F\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file, err := keymap.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	keymap.Use(file)
	t.Cleanup(func() { keymap.Use(nil) })

	app := newApp(t)
	app.SignIn("alice@demo.test")
	app.Open(screenkit.CardScreen)
	screentest.MustShow(t, app.Footer(), "F freeze/unfreeze")
	screentest.MustNotShow(t, app.Footer(), "f freeze")
	app.Keys("f")
	app.MustNotShow(t, "Freeze the card ending")
	app.Keys("?")
	app.MustShow(t, "F freeze/unfreeze")
	app.Keys("esc", ":")
	app.Type("freeze")
	app.MustShow(t, "freeze the card (or unfreeze it)        ")
	app.Keys("esc", "F")
	app.MustShow(t, "Freeze the card ending 4242?")
	app.Keys("y")
	app.MustShow(t, "FROZEN")
}
