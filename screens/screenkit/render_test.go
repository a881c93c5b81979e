package screenkit_test

import (
	"encoding/json"
	"testing"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/theme"
	"cardterm/ui/uitest"
)

// Field names the gateway adds (extra fields, metadata keys) are its text
// too: the label column is sanitized like the values.
func TestRenderFieldsSanitizesGatewayLabels(t *testing.T) {
	st := theme.New(true, false)
	extra := apiclient.Extra{screentest.HostileText: json.RawMessage(`"x"`), "plain": json.RawMessage(`"` + `\u001b[2J` + `"`)}
	out := screenkit.RenderFields(&st, screenkit.ExtraFields(extra), 80)
	screentest.MustBeClean(t, "RenderFields", out)
	screentest.MustShow(t, uitest.Plain(tea.NewView(out)), "<U+202E>", "Plain")
}

// SideBySide fits the left block's lines to its width and keeps going
// while either block has lines.
func TestSideBySide(t *testing.T) {
	got := screenkit.SideBySide("ab\nlonger than six\nc", "1\n2\n3\n4", 6, " | ")
	want := "ab     | 1\nlonger | 2\nc      | 3\n       | 4"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if got := screenkit.SideBySide("", "", 3, "|"); got != "   |" {
		t.Fatalf("empty blocks: %q", got)
	}
}

// Inset pads a body as lipgloss's Padding(1, 2) would, line by line.
func TestInset(t *testing.T) {
	if got := screenkit.Inset("a\nbc", 1, 2); got != "\n  a\n  bc" {
		t.Fatalf("%q", got)
	}
}
