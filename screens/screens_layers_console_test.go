package screens_test

import (
	"testing"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/support"
	"cardterm/ui"
)

// The two screens outside the navigation, the sign-in and the support
// console, hold to the same contract as every screen: a layer over them
// gets every key, click and paste and they none; the help and the
// notices open over it and esc closes one layer at a time; nothing of
// the screen shows through.
func TestEveryLayerOverTheScreensOutsideTheNavigation(t *testing.T) {
	console := func(d screenkit.Deps) ui.Screen {
		return support.New(d, support.Options{ExportDir: t.TempDir()})
	}
	for _, screen := range []struct {
		name    string
		options []screentest.Option
	}{
		{"sign-in", []screentest.Option{screentest.WithDemo()}},
		{"support console", []screentest.Option{screentest.WithSupport(console, true)}},
	} {
		t.Run(screen.name, func(t *testing.T) {
			app := allScreens(t, screen.options...)
			if app.UI().SignedIn() {
				t.Fatalf("%s is shown signed in", screen.name)
			}
			probeContract(t, app, rootLayers[:2]) // the help and the notices
		})
	}
}
