package card_test

import (
	"testing"

	"cardterm/screens/card"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
)

// BenchmarkCardKeyPress is one key press (Update and View of the whole
// frame, the root's status bar, navigation and help included) on the
// Card screen at 120x40: down and up in turn.
func BenchmarkCardKeyPress(b *testing.B) {
	screentest.BenchScreenKeyPress(b, screentest.Of(signin.New), screentest.Of(card.New), "2", "ACTIVE")
}
