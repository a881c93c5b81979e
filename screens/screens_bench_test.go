package screens_test

import (
	"testing"

	"cardterm/screens"
	"cardterm/screens/account"
	"cardterm/screens/card"
	"cardterm/screens/delegation"
	"cardterm/screens/screentest"
	"cardterm/screens/wallets"
)

// BenchmarkScreenKeyPress is one key press (Update and View of the whole
// frame, the root's status bar, navigation and help included) on each
// screen at 120x40: down and up in turn. jump opens the screen and shows
// is checked on it first.
func BenchmarkScreenKeyPress(b *testing.B) {
	for _, bench := range []struct {
		name        string
		screen      screentest.Build
		jump, shows string
	}{
		{"Account", screentest.Of(account.New), "1", "Alice Martin"},
		{"Card", screentest.Of(card.New), "2", "ACTIVE"},
		{"Wallets", screentest.Of(wallets.New), "4", "USDC"},
		{"Delegation", screentest.Of(delegation.New), "6", "Delegation"},
	} {
		b.Run(bench.name, func(b *testing.B) {
			screentest.BenchScreenKeyPress(b, screens.SignIn, bench.screen, bench.jump, bench.shows)
		})
	}
}
