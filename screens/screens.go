// Package screens lists cardterm's screens in navigation order. Each screen
// is a package of its own beside this file (signin, account, card, ...);
// what they share is in screenkit, their test harness in screentest. Adding
// a screen is one line in All (see ARCHITECTURE.md, "Add a screen").
package screens

import (
	"cardterm/screens/account"
	"cardterm/screens/card"
	"cardterm/screens/consent"
	"cardterm/screens/delegation"
	"cardterm/screens/events"
	"cardterm/screens/insights"
	"cardterm/screens/orders"
	"cardterm/screens/screenkit"
	"cardterm/screens/signin"
	"cardterm/screens/transactions"
	"cardterm/screens/wallets"
	"cardterm/screens/webhooks"
	"cardterm/screens/whitelist"
	"cardterm/ui"
)

// SignIn builds the sign-in screen, shown whenever no one is signed in.
func SignIn(deps screenkit.Deps) ui.Screen { return signin.New(deps) }

// All builds the screens of the navigation; the root orders them by their
// number key.
func All(deps screenkit.Deps) []ui.Screen {
	return []ui.Screen{
		account.New(deps),
		card.New(deps),
		transactions.New(deps),
		insights.New(deps),
		wallets.New(deps),
		whitelist.New(deps),
		delegation.New(deps),
		orders.New(deps),
		consent.New(deps),
		webhooks.New(deps),
		events.New(deps),
	}
}
