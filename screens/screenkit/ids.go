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

// shortTitles are the names the navigation shows on a terminal narrower
// than 100 columns (ui.ShortTitled), where a screen's title is longer
// than ui.NavShortWidth.
var shortTitles = map[ui.ScreenID]string{
	TransactionsScreen: "Trans.",
	InsightsScreen:     "Spend.",
	WhitelistScreen:    "W-list",
	DelegationScreen:   "Deleg.",
	WebhooksScreen:     "Hooks",
}

// ShortTitle implements ui.ShortTitled: the screen's short name, or its
// title when that is short already.
func (b Base) ShortTitle() string {
	if short, ok := shortTitles[b.ID()]; ok {
		return short
	}
	return b.Title()
}

// recordNouns are what one record of each screen is, for the title of
// the chooser of the user's commands (docs/commands.md): "Run on this
// transaction".
var recordNouns = map[ui.ScreenID]string{
	AccountScreen:      "account",
	CardScreen:         "card",
	TransactionsScreen: "transaction",
	InsightsScreen:     "spending bar",
	WalletsScreen:      "wallet",
	WhitelistScreen:    "whitelisted address",
	DelegationScreen:   "delegation",
	OrdersScreen:       "order",
	ConsentScreen:      "consent set",
	WebhooksScreen:     "webhook",
	EventsScreen:       "event delivery",
}

// RecordNoun implements ui.RecordNamed: one of the screen's records, in
// the singular; empty for a screen not listed, which the root then calls
// by its ID.
func (b Base) RecordNoun() string { return recordNouns[b.ID()] }
