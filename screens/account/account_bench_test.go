package account_test

import (
	"testing"

	"cardterm/screens/account"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
)

// BenchmarkAccountKeyPress is one key press (Update and View of the whole
// frame, the root's status bar, navigation and help included) on the
// Account screen at 120x40: down and up in turn.
func BenchmarkAccountKeyPress(b *testing.B) {
	screentest.BenchScreenKeyPress(b, screentest.Of(signin.New), screentest.Of(account.New), "1", "Alice Martin")
}
