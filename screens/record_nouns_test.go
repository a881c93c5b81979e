package screens_test

import (
	"testing"

	"cardterm/screens"
	"cardterm/screens/screenkit"
	"cardterm/ui"
)

// Every screen names one of its records in the singular, so the chooser
// of the user's commands reads "Run on this transaction", never "Run on
// this transactions record".
func TestEveryScreenNamesItsRecordInTheSingular(t *testing.T) {
	want := map[ui.ScreenID]string{
		screenkit.AccountScreen:      "account",
		screenkit.CardScreen:         "card",
		screenkit.TransactionsScreen: "transaction",
		screenkit.InsightsScreen:     "spending bar",
		screenkit.WalletsScreen:      "wallet",
		screenkit.WhitelistScreen:    "whitelisted address",
		screenkit.DelegationScreen:   "delegation",
		screenkit.OrdersScreen:       "order",
		screenkit.ConsentScreen:      "consent set",
		screenkit.WebhooksScreen:     "webhook",
		screenkit.EventsScreen:       "event delivery",
	}
	all := screens.All(screenkit.Deps{Requests: ui.NewRequests()})
	if len(all) != len(want) {
		t.Fatalf("%d screens, %d nouns: a new screen needs its record's noun", len(all), len(want))
	}
	for _, s := range all {
		named, ok := s.(ui.RecordNamed)
		if !ok {
			t.Errorf("screen %q does not name its records", s.ID())
			continue
		}
		if got := named.RecordNoun(); got != want[s.ID()] {
			t.Errorf("screen %q: a record is %q, want %q", s.ID(), got, want[s.ID()])
		}
	}
}
