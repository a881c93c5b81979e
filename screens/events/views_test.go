package events_test

import (
	"path/filepath"
	"testing"

	"cardterm/domain/savedview"
	"cardterm/screens/screentest"
	"cardterm/ui"
)

// The events' quick filter saved as a view (V and a name) is in the
// state file; it opens from the palette, and after a restart (a new app
// on the same file) too.
func TestSavedEventsView(t *testing.T) {
	store := savedview.Store{Path: filepath.Join(t.TempDir(), "views.json"), Profile: "acme"}
	frozenThenUnfrozen := func() *screentest.App {
		app, l := newApp(t, true, screentest.WithViews(store))
		pointAtListener(t, app, l)
		if err := app.Client.FreezeCard(t.Context()); err != nil {
			t.Fatal(err)
		}
		if err := app.Client.UnfreezeCard(t.Context()); err != nil {
			t.Fatal(err)
		}
		waitReceived(t, l, 2)
		app.Drive(ui.SignedInMsg{})
		app.MustShow(t, "card.frozen", "card.unfrozen")
		return app
	}
	app := frozenThenUnfrozen()
	app.Keys("/")
	app.Type("unfrozen")
	app.Keys("enter", "V")
	app.MustShow(t, "Save as a view", "filter: unfrozen")
	app.Type("thaws")
	app.Keys("enter")
	app.MustShow(t, "view thaws saved")
	if views, err := store.Load(); err != nil || len(views) != 1 || views[0].Events() != "unfrozen" {
		t.Fatalf("store: %+v %v", views, err)
	}

	restarted := frozenThenUnfrozen()
	restarted.Keys(":")
	restarted.Type("thaws")
	restarted.MustShow(t, "view thaws on Events")
	restarted.Keys("enter")
	restarted.MustShow(t, "card.unfrozen", "filter: unfrozen")
	restarted.MustNotShow(t, "card.frozen")
}
