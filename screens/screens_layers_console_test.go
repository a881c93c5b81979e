package screens_test

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

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
			p, screenBefore, sent := openProbe(t, app)
			app.Keys(probeKeysPressed...)
			w, _ := app.UI().BodySize()
			app.Click(frameWidth-w/2, 2)
			app.Drive(tea.PasteMsg{Content: "pasted"})
			if want := len(probeKeysPressed) + 2; len(p.got) != want {
				t.Fatalf("the probe got %d of %d inputs: %q", len(p.got), want, p.got)
			}
			mustShowOnlyProbe(t, app)
			for _, over := range rootLayers[:2] { // the help and the notices
				over.check(t, app, p)
			}
			app.Keys("esc")
			if top, open := app.UI().TopLayer(); open {
				t.Fatalf("esc left %T open over the screen", top)
			}
			if after := ansi.Strip(app.UI().Active().View()); after != screenBefore {
				t.Fatalf("the screen changed under its layer:\n%s\n---\n%s", screenBefore, after)
			}
			if now := len(app.Server.Requests()); now != sent {
				t.Fatalf("the screen sent %d requests under its layer", now-sent)
			}
		})
	}
}
