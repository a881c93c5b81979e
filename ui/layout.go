package ui

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// FitLine makes one line exactly w cells wide: it cuts what is too long and
// pads with spaces what is too short. Width is measured in cells (ansi), not
// bytes, so wide characters and styles count right.
func FitLine(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := cellWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// cellWidth is ansi.StringWidth with a fast path for plain ASCII, where
// each byte is one cell.
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x7f || c < 0x20 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// FitBlock makes a block exactly w x h: each line fitted, missing lines
// blank, extra lines dropped. Screens and the root use it so that a frame is
// always the size of the terminal.
func FitBlock(s string, w, h int) string {
	if h <= 0 {
		return ""
	}
	lines := strings.SplitN(s, "\n", h+1)
	if len(lines) > h {
		lines = lines[:h]
	}
	out := make([]string, h)
	for i := range out {
		if i < len(lines) {
			out[i] = FitLine(lines[i], w)
		} else {
			out[i] = strings.Repeat(" ", max(w, 0))
		}
	}
	return strings.Join(out, "\n")
}

// overlay draws box over base (both line blocks), its top-left corner at
// column x and row y, keeping the base visible around it.
func overlay(base, box string, x, y int) string {
	bl := strings.Split(base, "\n")
	for i, line := range strings.Split(box, "\n") {
		row := y + i
		if row < 0 || row >= len(bl) {
			continue
		}
		under := bl[row]
		lw := ansi.StringWidth(line)
		left := FitLine(ansi.Truncate(under, x, ""), x)
		right := ansi.TruncateLeft(under, x+lw, "")
		bl[row] = left + "\x1b[m" + line + "\x1b[m" + right
	}
	return strings.Join(bl, "\n")
}
