package ui_test

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/ui"
	"cardterm/ui/uitest"
)

// The client key is cut only when the terminal has no room for it: whole
// at 200 columns, cut in its middle (its end kept) at 80, never beside
// empty space.
func TestStatusBarClientKeyTakesTheRoomThereIs(t *testing.T) {
	const key = "ck_live_acme_production_eu_west_0123456789"
	status := func(width int) string {
		root := ui.NewRoot(ui.RootOptions{SignIn: &fakeScreen{id: ui.ScreenSignIn, title: "Sign in"},
			Gateway: "gateway.example.com", Environment: "staging", ClientKey: key})
		uitest.Drive(root, tea.WindowSizeMsg{Width: width, Height: 10})
		lines := strings.Split(uitest.Plain(root.View()), "\n")
		return lines[len(lines)-2]
	}
	if wide := status(200); !strings.Contains(wide, "key "+key) {
		t.Fatalf("at 200 columns the key is cut:\n%q", wide)
	}
	narrow := status(80)
	if strings.Contains(narrow, key) || !strings.Contains(narrow, "…") || !strings.Contains(narrow, "456789") {
		t.Fatalf("at 80 columns the key should be cut in its middle:\n%q", narrow)
	}
	if cut := narrow[strings.Index(narrow, "key ")+4:]; len(strings.Fields(cut)[0]) < 16 {
		t.Fatalf("the key got less than 16 cells: %q", narrow)
	}
}

// A notice raised before the terminal's size is known (the config file's
// warning at start) is laid out when the size comes: shown whole on lines
// of its own, not cut in the status bar.
func TestNoticeRaisedBeforeTheSizeIsShownWhole(t *testing.T) {
	long := "/tmp/a/rather/long/path/to/cardterm/config.yaml:4: profiles[0].timeout: \"soon\" is not a positive duration such as 15s (the config file is ignored until it is fixed)"
	root := ui.NewRoot(ui.RootOptions{SignIn: &fakeScreen{id: ui.ScreenSignIn, title: "Sign in"}, Warning: long})
	uitest.Drive(root, uitest.Run(root.Init())...)
	uitest.Drive(root, tea.WindowSizeMsg{Width: 100, Height: 20})
	if v := strings.Join(strings.Fields(uitest.Plain(root.View())), " "); !strings.Contains(v, long) {
		t.Fatalf("the warning is cut:\n%s", uitest.Plain(root.View()))
	}
}
