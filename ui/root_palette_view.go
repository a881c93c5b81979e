package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// View implements layer.Layer: the palette's rows in a box over the body,
// the chosen one marked, a disabled one muted with its reason under it.
func (p *goToPrompt) View() string {
	inner := min(max(p.width-2-p.st.Dialog.GetHorizontalFrameSize(), 16), 72)
	room := max(p.height-2-p.st.Dialog.GetVerticalFrameSize(), 3)
	first := max(p.cursor-room/2, 0)
	lines := []string{}
	for i := first; i < len(p.rows) && len(lines) < room; i++ {
		lines = append(lines, p.rowLines(p.rows[i], i == p.cursor, inner)...)
	}
	if len(p.rows) == 0 {
		lines = append(lines, p.st.Muted.Render("nothing matches"))
	}
	if len(lines) > room {
		lines = lines[:room]
	}
	w := 0
	for _, l := range lines {
		w = max(w, lipgloss.Width(l))
	}
	return p.st.Dialog.Width(w + p.st.Dialog.GetHorizontalFrameSize()).Render(strings.Join(lines, "\n"))
}

// rowLines is one row: its words, its key at the right, and for an
// action that cannot run now the reason, muted, on the lines under it.
func (p *goToPrompt) rowLines(entry paletteEntry, chosen bool, inner int) []string {
	keyText := entry.keyHelp
	title := ansi.Truncate(entry.title, max(inner-CellWidth(keyText)-4, 4), "…")
	gap := max(inner-2-CellWidth(title)-CellWidth(keyText), 1)
	text := title + strings.Repeat(" ", gap) + keyText
	mark := "  "
	if chosen {
		mark = "› "
	}
	var line string
	switch {
	case chosen:
		line = p.st.TableSelected.Render(mark + text)
	case entry.why != "":
		line = p.st.Muted.Render(mark + text)
	default:
		line = mark + p.st.KeyDesc.Render(title) + strings.Repeat(" ", gap) + p.st.KeyHint.Render(keyText)
	}
	if entry.why == "" {
		return []string{line}
	}
	// The reason is what the user came to read: wrapped, never cut.
	lines := []string{line}
	for _, part := range strings.Split(ansi.Wordwrap(entry.why, max(inner-4, 4), ""), "\n") {
		lines = append(lines, p.st.Muted.Render("    "+part))
	}
	return lines
}
