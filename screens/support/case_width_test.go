package support_test

import (
	"regexp"
	"strings"
	"testing"

	"cardterm/sandbox"
	"cardterm/screens/screentest"
	"cardterm/screens/support"
)

// At 80x24 the case's time column keeps every minute: the zone is said
// once in its title, not cut off each cell.
func TestSupportCaseTimesFitAt80Columns(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test")}, screentest.WithSize(80, 24))
	app.MustShow(t, "COMPLETE", "Updated (")
	screen := app.Screen()
	if strings.Contains(screen, " U…") || !regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d\s*\n`).MatchString(screen) {
		t.Fatalf("the case's times do not fit at 80 columns:\n%s", screen)
	}
}
