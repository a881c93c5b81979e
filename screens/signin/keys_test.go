package signin

import (
	"testing"

	"cardterm/screens/screentest"
	"cardterm/ui/uitest"
)

// The form's hint names the keys in force: a keys file that moves the
// browser sign-in moves the words with it.
func TestSignInHintNamesTheKeysInForce(t *testing.T) {
	uitest.UseKeys(t, "signin.o-auth: ctrl+b\n")
	app := newApp(t, screentest.WithDemo(), screentest.WithSize(120, 40))
	app.MustShow(t, "ctrl+b signs in with the browser or a phone")
	app.MustNotShow(t, "ctrl+o signs in")
}
