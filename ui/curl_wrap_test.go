package ui

import (
	"strings"
	"testing"
)

// A copied command shown in a narrow dialog (57 cells: 80x24) wraps at spaces, and a line's
// continuation backslash stays on its last piece: a lone "\" on a line of
// its own read as a broken command.
func TestWrapCommandKeepsTheBackslashOnItsLine(t *testing.T) {
	command := "curl --silent \\\n  --header \"Authorization: Bearer $CARDTERM_ACCESS_TOKEN\" \\\n  'http://127.0.0.1/v1/card/freeze'"
	lines := wrapCommand(command, 57)
	for _, l := range lines {
		if strings.TrimSpace(l) == "\\" {
			t.Fatalf("a backslash alone on a line:\n%s", strings.Join(lines, "\n"))
		}
		if CellWidth(l) > 57 {
			t.Fatalf("a line of %d cells, wider than 57:\n%s", CellWidth(l), strings.Join(lines, "\n"))
		}
	}
	if got := strings.Join(lines, "\n"); !strings.Contains(got, "$CARDTERM_ACCESS_TOKEN\" \\") {
		t.Fatalf("the header's line lost its backslash:\n%s", got)
	}
}
