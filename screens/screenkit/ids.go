package screenkit

import "cardterm/ui"

// The app's screens by name, for what one screen addresses to another
// (NavigateMsg), to its own requests and to its notices. Where a screen
// sits in the navigation, and so its number key, is its place in
// screens.All, not here.
const (
	AccountScreen      ui.ScreenID = "account"
	CardScreen         ui.ScreenID = "card"
	TransactionsScreen ui.ScreenID = "transactions"
	InsightsScreen     ui.ScreenID = "insights"
	WalletsScreen      ui.ScreenID = "wallets"
	WhitelistScreen    ui.ScreenID = "whitelist"
	DelegationScreen   ui.ScreenID = "delegation"
	OrdersScreen       ui.ScreenID = "orders"
	ConsentScreen      ui.ScreenID = "consent"
	WebhooksScreen     ui.ScreenID = "webhooks"
	EventsScreen       ui.ScreenID = "events"
)

// ShortTitle implements ui.ShortTitled: the name the navigation shows on
// a terminal narrower than 100 columns, where a screen's title is longer
// than ui.NavShortWidth; else its title, short already. (Switches, here
// and in RecordNoun, as a package map is built before main on every
// start.)
func (b Base) ShortTitle() string {
	switch b.ID() {
	case TransactionsScreen:
		return "Trans."
	case InsightsScreen:
		return "Spend."
	case WhitelistScreen:
		return "W-list"
	case DelegationScreen:
		return "Deleg."
	case WebhooksScreen:
		return "Hooks"
	}
	return b.Title()
}

// RecordNoun implements ui.RecordNamed: what one of the screen's records
// is, in the singular, for the title of the chooser of the user's
// commands (docs/commands.md): "Run on this transaction". Empty for a
// screen not listed, which the root then calls by its ID.
func (b Base) RecordNoun() string {
	switch b.ID() {
	case AccountScreen:
		return "account"
	case CardScreen:
		return "card"
	case TransactionsScreen:
		return "transaction"
	case InsightsScreen:
		return "spending bar"
	case WalletsScreen:
		return "wallet"
	case WhitelistScreen:
		return "whitelisted address"
	case DelegationScreen:
		return "delegation"
	case OrdersScreen:
		return "order"
	case ConsentScreen:
		return "consent set"
	case WebhooksScreen:
		return "webhook"
	case EventsScreen:
		return "event delivery"
	}
	return ""
}
