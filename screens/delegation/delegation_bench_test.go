package delegation

import (
	"testing"

	"cardterm/screens/screentest"
	"cardterm/screens/signin"
)

// BenchmarkDelegationKeyPress is one key press (Update and View of the whole
// frame, the root's status bar, navigation and help included) on the
// Delegation screen at 120x40: down and up in turn.
func BenchmarkDelegationKeyPress(b *testing.B) {
	screentest.BenchScreenKeyPress(b, screentest.Of(signin.New), screentest.Of(New), "6", "Delegation")
}
