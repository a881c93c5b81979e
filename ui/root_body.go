package ui

// BodySize is the size the active screen was last given (SetSize): the
// terminal less the navigation, the status bar, the footer and a long
// notice. Tests check against it that no screen draws past its size,
// where the frame would clip a line without an ellipsis.
func (r *Root) BodySize() (width, height int) { return r.bodySize() }
