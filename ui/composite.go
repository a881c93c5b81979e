package ui

import (
	"charm.land/lipgloss/v2"
)

// composite draws box centred over base (a block bw by bh cells) on
// lipgloss layers: the body, then a blank band across the whole width on
// the box's rows and one row either side, then the box. Cells are
// composited, not strings spliced, so a wide or combining character of
// the body cut by the box's edge leaves no half glyph, and nothing of the
// screen beneath shows beside the box on its rows.
func composite(base, box string, bw, bh int) string {
	boxW, boxH := lipgloss.Width(box), lipgloss.Height(box)
	x := max((bw-boxW)/2, 0)
	y := max((bh-boxH)/2, 0)
	bandTop := max(y-1, 0)
	bandH := min(boxH+2, bh-bandTop)
	canvas := lipgloss.NewCanvas(bw, bh)
	canvas.Compose(lipgloss.NewCompositor(
		lipgloss.NewLayer(base),
		lipgloss.NewLayer(FitBlock("", bw, bandH)).Y(bandTop).Z(1),
		lipgloss.NewLayer(box).X(x).Y(y).Z(2),
	))
	return FitBlock(canvas.Render(), bw, bh)
}
