package ui_test

import (
	"testing"

	"charm.land/bubbles/v2/key"

	"cardterm/ui"
	"cardterm/ui/uitest"
)

func TestGlobalKeysMatch(t *testing.T) {
	k := ui.GlobalKeys()
	for name, b := range map[string]key.Binding{
		"?": k.Help, "q": k.Quit, "ctrl+c": k.Quit, "tab": k.Focus, "shift+tab": k.Focus,
		"esc": k.Back, "r": k.Refresh, "y": k.Copy, "o": k.Open, "S": k.SignOut,
		"1": k.Jump, "9": k.Jump, "ctrl+z": k.Suspend,
	} {
		if !key.Matches(uitest.Key(name), b) {
			t.Errorf("%q does not match %v", name, b.Keys())
		}
	}
	if key.Matches(uitest.Key("s"), k.SignOut) {
		t.Error("s matches sign out (S only)")
	}
	// Every binding is in the full help, so help == keys.
	seen := map[string]bool{}
	for _, g := range k.FullHelp() {
		for _, b := range g {
			seen[b.Help().Desc] = true
		}
	}
	for _, b := range []key.Binding{k.Help, k.Quit, k.Focus, k.Back, k.Refresh, k.Copy, k.Open, k.SignOut, k.Jump, k.Suspend} {
		if !seen[b.Help().Desc] {
			t.Errorf("%v missing from the help", b.Keys())
		}
	}
}
