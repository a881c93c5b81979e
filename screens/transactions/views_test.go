package transactions_test

import (
	"os"
	"path/filepath"
	"testing"

	"cardterm/domain/savedview"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/screens/transactions"
)

// Filters saved as a view (V: the filter form and a name) is in the state file; it
// opens from the palette, and after a restart (a new app on the same
// file) too. A bad name is refused next to its field and nothing is saved.
func TestSavedTransactionsView(t *testing.T) {
	store := savedview.Store{Path: filepath.Join(t.TempDir(), "views.json"), Profile: "acme"}
	newApp := func() *screentest.App {
		app := screentest.New(t, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(transactions.New)),
			screentest.WithViews(store), screentest.WithSize(120, 34))
		app.SignIn("alice@demo.test")
		app.Open(screenkit.TransactionsScreen)
		return app
	}
	app := newApp()
	app.Keys("V", "tab", "tab")
	app.Type("Amazon")
	app.Keys("tab", "tab")
	app.Type("a name far too long to be a view's name, really")
	app.Keys("enter")
	app.MustShow(t, "Save the filters as a view", "at most 40 characters")
	if _, err := os.Stat(store.Path); err == nil {
		t.Fatal("a view with a bad name was saved")
	}
	app.Keys("ctrl+u")
	app.Type("amazon only")
	app.Keys("enter")
	app.MustShow(t, "Amazon EU", "view amazon only saved")
	app.MustNotShow(t, "Zara")
	views, err := store.Load()
	if err != nil || len(views) != 1 || views[0].Filter["searchKey"] != "Amazon" {
		t.Fatalf("store: %+v %v", views, err)
	}
	app.Keys("c") // clear filters
	app.MustShow(t, "Zara")
	app.Keys(":")
	app.Type("amaz")
	app.MustShow(t, "view amazon only on Transactions")
	app.Keys("enter")
	app.MustShow(t, "Amazon EU")
	app.MustNotShow(t, "Zara")

	restarted := newApp()
	restarted.MustShow(t, "Zara")
	restarted.Keys(":")
	restarted.Type("view")
	restarted.MustShow(t, "view amazon only on Transactions")
	restarted.Keys("enter")
	restarted.MustNotShow(t, "Zara")
	restarted.MustShow(t, "Amazon EU")
}

// A saved view's notice is the Transactions screen's: the notice log (m)
// names the screen, not cardterm, as it does for the screen's other
// notices.
func TestSavedViewNoticeNamesTheScreen(t *testing.T) {
	store := savedview.Store{Path: filepath.Join(t.TempDir(), "views.json"), Profile: "acme"}
	app := screentest.New(t, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(transactions.New)),
		screentest.WithViews(store), screentest.WithSize(120, 34))
	app.SignIn("alice@demo.test")
	app.Open(screenkit.TransactionsScreen)
	app.Keys("V", "tab", "tab")
	app.Type("Amazon")
	app.Keys("tab", "tab")
	app.Type("amazon only")
	app.Keys("enter")
	app.MustShow(t, "view amazon only saved")
	app.Keys("m")
	app.MustShow(t, "Transactions  view amazon only saved")
	app.MustNotShow(t, "cardterm  view amazon only saved")
}

// The chooser (:) titles V as this screen's action: the Whitelist's and
// the Events' V share its help words, and the chooser named one of them
// ("save the currency and filter as a view") at random.
func TestChooserTitlesTheTransactionsActions(t *testing.T) {
	app := screentest.New(t, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(transactions.New)),
		screentest.WithSize(120, 40))
	app.SignIn("alice@demo.test")
	app.Open(screenkit.TransactionsScreen)
	for range 5 {
		app.Keys(":")
		app.MustShow(t, "save the filters as a view", "previous page of transactions")
		app.MustNotShow(t, "currency", "events' filter")
		app.Keys("esc")
	}
}
