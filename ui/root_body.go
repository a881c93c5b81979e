package ui

import "slices"

// BodySize is the size the active screen was last given (SetSize): the
// terminal less the navigation, the status bar, the footer and a long
// notice. Tests check against it that no screen draws past its size,
// where the frame would clip a line without an ellipsis.
func (r *Root) BodySize() (width, height int) { return r.bodySize() }

// BodyView draws the body alone, as the frame shows it (with any dialog
// over it) but without the navigation, the status bar and the footer:
// what a screen owns, for its golden files, so a change of the shell does
// not rewrite every screen's.
func (r *Root) BodyView() string {
	if r.width <= 0 || r.height <= 0 {
		return ""
	}
	bw, bh := r.bodySize()
	return r.renderBody(bw, bh)
}

// NumberKeyOf is the number key that opens the screen called id, "" when
// it has none (past the tenth, or not in the navigation).
func (r *Root) NumberKeyOf(id ScreenID) string {
	if i := r.PositionOf(id); i >= 0 {
		return r.numberKeyAt(i)
	}
	return ""
}

// PositionOf is the place of the screen called id in the navigation, from
// 0; -1 when it is not there.
func (r *Root) PositionOf(id ScreenID) int {
	for i, s := range r.screens {
		if s.ID() == id {
			return i
		}
	}
	return -1
}

// Screens are the navigation's screens as they are now (the last build),
// in order: for tests that look at every screen's state.
func (r *Root) Screens() []Screen { return slices.Clone(r.screens) }
