package ui

// BodyLinesForTest and CompactBodyForTest let the external tests check how
// a confirmation shows a request body without building a whole root: one
// member a line, and the fallback when that is too tall for the screen.
func BodyLinesForTest(line string, width int) []string { return bodyLines(line, width, true) }

func CompactBodyForTest(line string, width int) []string { return bodyLines(line, width, false) }
