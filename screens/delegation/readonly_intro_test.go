package delegation

import (
	"testing"

	"cardterm/screens/screentest"
)

// In read-only mode the steps of the introduction name no key that
// requests a token or sends the post-approval; c (read only) stays.
func TestDelegationIntroNamesNoMutatingKeyInReadOnly(t *testing.T) {
	app, _ := newApp(t, "alice@demo.test", screentest.ReadOnly())
	s := app.Screen()
	screentest.MustShow(t, s, "1. request a single-use token", "3. send the post-approval", "c lists contracts")
	screentest.MustNotShow(t, s, "t requests", "a sends")
}
