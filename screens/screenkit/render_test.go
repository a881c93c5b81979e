package screenkit_test

import (
	"encoding/json"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

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

// A badge's word lines up with the values above and below it, with colour
// and under NO_COLOR: its padding takes a cell of the gap.
func TestBadgeValuesLineUpWithOtherValues(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		st := theme.New(true, noColor)
		out := ansi.Strip(screenkit.RenderFields(&st, []screenkit.Field{{Label: "Type", Value: "VIRTUAL"},
			{Label: "Status", Styled: screenkit.Badge(&st, "ACTIVE", theme.ToneOK)}}, 60))
		lines := strings.Split(out, "\n")
		if strings.Index(lines[0], "VIRTUAL") != strings.Index(lines[1], "ACTIVE") {
			t.Errorf("no-color=%v: the badge's word is not under the value:\n%s", noColor, out)
		}
	}
}

// A field the gateway adds as an object (a card's shipping) reads as
// labelled lines with dates as every date, never as a line of raw JSON.
func TestExtraFieldsSpellsOutAnObject(t *testing.T) {
	st := theme.New(true, true)
	extra := apiclient.Extra{"shipping": json.RawMessage(
		`{"carrier":"DHL Express","parcels":2,"shippedAt":"2026-11-29T14:57:38Z","state":"in transit"}`)}
	out := ansi.Strip(screenkit.RenderFields(&st, screenkit.ExtraFields(extra), 100))
	for _, bad := range []string{"{", `"`, "2026-11-29T14:57"} {
		if strings.Contains(out, bad) {
			t.Errorf("the object shows %q:\n%s", bad, out)
		}
	}
	screentest.MustShow(t, out, "Shipping carrier", "DHL Express", "Shipping parcels", "2",
		"Shipping shipped at", "Shipping state", "in transit",
		screenkit.FormatTime("2026-11-29T14:57:38Z"))
}

// A styled value too wide for its column (a badge and its hint, a
// sentence) wraps at spaces under the value column: every word shows, no
// line is wider than asked, and nothing is cut mid-word at the edge.
func TestRenderFieldsWrapsStyledValues(t *testing.T) {
	st := theme.New(true, true)
	hint := "identity not verified; most card and wallet operations are refused"
	for _, width := range []int{40, 52, 66, 120} {
		fields := []screenkit.Field{{Label: "Name", Value: "Umar Haddad"},
			{Label: "Verification", Styled: screenkit.Badge(&st, "UNVERIFIED", theme.ToneWarn) + " " + st.Muted.Render(hint)}}
		out := ansi.Strip(screenkit.RenderFields(&st, fields, width))
		lines := strings.Split(out, "\n")
		for _, line := range lines {
			if w := ansi.StringWidth(line); w > width {
				t.Errorf("width %d: a line of %d cells: %q", width, w, line)
			}
		}
		valueColumn := strings.Index(lines[0], "Umar")
		for _, line := range lines[2:] {
			if strings.TrimSpace(line[:valueColumn]) != "" || line[valueColumn] == ' ' {
				t.Errorf("width %d: a continuation is not under the value column: %q", width, line)
			}
		}
		if got := strings.Join(strings.Fields(strings.Join(lines[1:], " ")), " "); got != "Verification UNVERIFIED "+hint {
			t.Errorf("width %d: the value read %q", width, got)
		}
	}
}
