package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/adrg/xdg"

	"cardterm/domain/savedview"
)

// Saved views (domain/savedview) live in $XDG_STATE_HOME/cardterm/
// views.json, under the profile in use: the app saves them and opens them
// from its palette; `cardterm get transactions --view NAME` reads one.

// viewStore is the views of the profile in use.
func viewStore(o options) savedview.Store {
	dir := os.Getenv("XDG_STATE_HOME") // read on each call, as configPath does
	if dir == "" {
		dir = xdg.StateHome
	}
	return savedview.Store{Path: filepath.Join(dir, "cardterm", "views.json"), Profile: o.profileShown()}
}

// viewsByLookup are the look-ups that take --view, and the screen whose
// views they read.
var viewsByLookup = map[string]string{"transactions": "transactions"}

// lookupView is the view --view names for the look-up, or a usage error
// naming the views there are.
func lookupView(o options, lookupName string) (*savedview.View, error) {
	if o.view == "" {
		return nil, nil
	}
	screen, ok := viewsByLookup[lookupName]
	if !ok {
		return nil, usageError{fmt.Sprintf("--view is for transactions, not %s", lookupName)}
	}
	views, err := viewStore(o).Load()
	if err != nil {
		return nil, err
	}
	view, ok := savedview.Find(views, screen, o.view)
	if !ok {
		names := savedview.Names(views, screen)
		there := "none is saved: save one from the app's filter form (Save as view)"
		if len(names) > 0 {
			there = "saved: " + strings.Join(names, ", ")
		}
		return nil, usageError{fmt.Sprintf("no %s view is called %q (%s)", screen, o.view, there)}
	}
	return &view, nil
}
