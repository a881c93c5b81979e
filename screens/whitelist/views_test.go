package whitelist

import (
	"path/filepath"
	"testing"

	"cardterm/domain/savedview"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
)

// The currency and the quick filter saved as a view (V and a name) are in
// the state file; the view opens from the palette, from another currency
// too, and after a restart (a new app on the same file). A missing name
// is refused next to its field and nothing is saved.
func TestSavedWhitelistView(t *testing.T) {
	store := savedview.Store{Path: filepath.Join(t.TempDir(), "views.json"), Profile: "acme"}
	newApp := func() *screentest.App {
		app := newWhitelistApp(t, "alice@demo.test", screentest.WithViews(store))
		app.Open(screenkit.WhitelistScreen)
		app.MustShow(t, "Savings", "Landlord")
		return app
	}
	app := newApp()
	app.Keys("/")
	app.Type("land")
	app.Keys("enter")
	app.MustShow(t, "Landlord")
	app.MustNotShow(t, "Savings")
	app.Keys("V")
	app.MustShow(t, "Save as a view", "currency: USDC", "filter: land")
	app.Keys("enter")
	app.MustShow(t, "a view needs a name")
	if views, _ := store.Load(); len(views) != 0 {
		t.Fatalf("saved without a name: %+v", views)
	}
	app.Type("usdc landlord")
	app.Keys("enter")
	app.MustShow(t, "view usdc landlord saved")
	views, err := store.Load()
	if currency, search := views[0].Whitelist(); err != nil || len(views) != 1 || currency != "usdc" || search != "land" {
		t.Fatalf("store: %+v %v", views, err)
	}
	app.Keys("c")
	app.Type("xrp")
	app.Keys("enter")
	app.MustShow(t, "XRP", "1 in all")
	app.Keys(":")
	app.Type("landl")
	app.MustShow(t, "view usdc landlord on Whitelist")
	app.Keys("enter")
	app.MustShow(t, "USDC", "Landlord")
	app.MustNotShow(t, "Exchange dep", "Savings")

	restarted := newApp()
	restarted.Keys(":")
	restarted.Type("view")
	restarted.MustShow(t, "view usdc landlord on Whitelist")
	restarted.Keys("enter")
	restarted.MustShow(t, "Landlord")
	restarted.MustNotShow(t, "Savings")
}
