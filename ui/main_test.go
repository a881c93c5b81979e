package ui_test

import (
	"testing"

	"cardterm/ui/uitest"
)

// TestMain seals the tests from this machine's settings (a profile,
// CARDTERM_*, a proxy, BROWSER): see uitest.Seal.
func TestMain(m *testing.M) { uitest.Main(m) }
