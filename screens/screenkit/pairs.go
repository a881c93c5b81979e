package screenkit

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"cardterm/theme"
	"cardterm/ui"
	"cardterm/ui/sanitize"
)

// Pair is one "label value" of a detail line; Value is gateway text and is
// sanitized when drawn.
type Pair struct{ Label, Value string }

// PairLines draws pairs as "label value  label value" lines that fit
// width: a pair that does not fit on the current line starts the next, and
// a value too long for a line of its own loses its middle (ui.Shorten), so
// no id is ever cut at its end by the screen's edge. Each group of pairs
// starts a line of its own.
func PairLines(s *theme.Styles, width int, groups ...[]Pair) string {
	var lines []string
	for _, group := range groups {
		line, used := "", 0
		for _, p := range group {
			label := sanitize.Text(p.Label)
			value := sanitize.Text(p.Value)
			if value == "" {
				value = "—"
			}
			labelWidth := ansi.StringWidth(label) + 1
			value = ui.Shorten(value, max(width-labelWidth, 8))
			need := labelWidth + ansi.StringWidth(value)
			if used > 0 && used+2+need > width {
				lines, line, used = append(lines, line), "", 0
			}
			if used > 0 {
				line += "  "
				used += 2
			}
			line += s.Muted.Render(label) + " " + s.Value.Render(value)
			used += need
		}
		if used > 0 {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}
