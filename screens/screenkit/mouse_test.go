package screenkit

import "testing"

// LinesAbove counts the lines drawn before a block; DrawnAt finds a
// block's first line beside another, by line and column (in cells).
func TestWhereABlockIsDrawn(t *testing.T) {
	whole := "Title\n\nheader\nrow 1\nrow 2"
	if lines, ok := LinesAbove(whole, "header\nrow 1\nrow 2"); !ok || lines != 2 {
		t.Errorf("LinesAbove: %d, %v; want 2", lines, ok)
	}
	if _, ok := LinesAbove(whole, "missing"); ok {
		t.Error("LinesAbove found a block that is not drawn")
	}
	beside := "card   │ Form title\nfields │ › Name"
	if line, column, ok := DrawnAt(beside, "› Name\n  Other"); !ok || line != 1 || column != 9 {
		t.Errorf("DrawnAt: line %d column %d %v; want 1, 9", line, column, ok)
	}
	if _, _, ok := DrawnAt(beside, ""); ok {
		t.Error("DrawnAt found an empty block")
	}
	if Height("a\nb\nc") != 3 || Height("") != 1 {
		t.Error("Height counts lines wrong")
	}
}
