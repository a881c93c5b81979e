package card_test

import (
	"strings"
	"testing"

	"cardterm/screens/account"
	"cardterm/screens/card"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
)

func TestMain(m *testing.M) { screentest.Main(m) }

// newApp is the app with Account and Card, as the golden files show them.
var newApp = screentest.Preset{SignIn: screentest.Of(signin.New),
	Options: []screentest.Option{screentest.WithScreen(screentest.Of(account.New), screentest.Of(card.New))}}.New

func TestCardFreezeAndUnfreeze(t *testing.T) {
	app := newApp(t)
	app.SignIn("alice@demo.test")
	app.Open(screenkit.CardScreen)
	app.MustShow(t, "ACTIVE", "VIRTUAL", "ALICE MARTIN", "4242", "2029/08", "Network", "VISA", "Ordered  2024-01-20 10:00 UTC")
	app.Golden("card-active")

	app.Keys("f")
	app.MustShow(t, "Freeze the card ending 4242?", "POST /v1/card/freeze", "declined")
	app.Golden("card-freeze-confirm")

	app.Keys("y")
	app.MustShow(t, "FROZEN", "card frozen")
	app.MustNotShow(t, "Freeze the card")

	app.Keys("f")
	app.MustShow(t, "Unfreeze the card", "authorizations resume")
	app.Keys("n")
	app.MustShow(t, "FROZEN")
	app.MustNotShow(t, "Unfreeze the card")

	app.Keys("f", "y")
	app.MustShow(t, "ACTIVE", "card unfrozen")
}

func TestCardStates(t *testing.T) {
	cases := []struct {
		user string
		want []string
	}{
		{"frank@demo.test", []string{"FROZEN", "PHYSICAL", "Unfreezing takes effect at once"}},
		{"bruno@demo.test", []string{"BLOCKED", "permanent", "order a new card"}},
		{"nora@demo.test", []string{"No card yet", "Press n to order"}},
		{"umar@demo.test", []string{"does not allow card operations", "VERIFIED identity"}},
	}
	for _, tc := range cases {
		t.Run(strings.TrimSuffix(tc.user, "@demo.test"), func(t *testing.T) {
			app := newApp(t)
			app.SignIn(tc.user)
			app.Open(screenkit.CardScreen)
			app.MustShow(t, tc.want...)
			app.MustNotShow(t, "Could not load")
			app.Golden("card")
		})
	}
}

// Every change of the card asks first, then shows what the gateway said.
func TestCardChangeConfirmsThenShowsTheAnswer(t *testing.T) {
	cases := []struct {
		name   string
		user   string
		press  []string // the keys that ask for the change
		dialog []string // what the confirmation says
		after  []string // what the screen shows once it is confirmed
		never  []string
	}{
		// A second f while the dialog is open does nothing: one freeze is
		// sent (a second would answer 400, already frozen).
		{"double press sends one freeze", "alice@demo.test", []string{"f", "f"},
			[]string{"Freeze the card ending 4242?"}, []string{"FROZEN", "card frozen"}, []string{"already frozen"}},
		{"order replaces a blocked card", "bruno@demo.test", []string{"n"},
			[]string{"Order a new virtual card?", "POST /v1/card/order"}, []string{"ACTIVE", "VIRTUAL", "new card ordered"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			app := newApp(t)
			app.SignIn(tc.user)
			app.Open(screenkit.CardScreen)
			app.Keys(tc.press...)
			app.MustShow(t, tc.dialog...)
			app.Keys("y")
			app.MustShow(t, tc.after...)
			app.MustNotShow(t, tc.never...)
		})
	}
}

func TestReadOnlyRefusesCardChanges(t *testing.T) {
	app := newApp(t, screentest.ReadOnly())
	app.SignIn("alice@demo.test")
	app.Open(screenkit.CardScreen)
	app.Keys("f")
	s := app.Screen()
	screentest.MustShow(t, s, "READ-ONLY", "read-only mode", "ACTIVE")
	screentest.MustNotShow(t, s, "Freeze the card", "f freeze")
}

// TestCardOffersOnlyActionsThatCanWork: without a card, or unverified, the
// card actions are not in the footer and a press says why; with a card that
// is not BLOCKED, ordering says why it is not offered, and with a BLOCKED
// one, freezing or unfreezing.
func TestCardOffersOnlyActionsThatCanWork(t *testing.T) {
	cases := []struct {
		user     string
		press    string
		notice   string
		footless []string // footer entries that must not show
		offered  []string // footer entries that must show
	}{
		{"nora@demo.test", "f", "freeze/unfreeze needs a card: there is none yet, order one with n", []string{"f freeze", "p set PIN", "v view PIN", "d card details"}, []string{"n order a new card"}},
		{"nora@demo.test", "p", "set PIN needs a card", nil, nil},
		{"nora@demo.test", "d", "card details needs a card", nil, nil},
		{"umar@demo.test", "v", "view PIN needs a VERIFIED identity: see the verification state on the Account screen (1)", []string{"f freeze", "n order", "p set PIN"}, nil},
		{"umar@demo.test", "n", "order a new card needs a VERIFIED identity", nil, nil},
		{"alice@demo.test", "n", "a new card can be ordered only when there is none or it is BLOCKED", []string{"n order"}, []string{"f freeze"}},
		{"bruno@demo.test", "f", "a BLOCKED card cannot be frozen or unfrozen: order a new one with n", []string{"f freeze"}, []string{"n order a new card"}},
	}
	for _, tc := range cases {
		t.Run(strings.TrimSuffix(tc.user, "@demo.test")+"_"+tc.press, func(t *testing.T) {
			app := newApp(t)
			app.SignIn(tc.user)
			app.Open(screenkit.CardScreen)
			app.MustRefuse(tc.press, tc.notice, tc.footless, tc.offered)
			app.MustNotShow(t, "Order a new virtual card?", "Freeze the card", "View PIN", "Card details (")
		})
	}
}
