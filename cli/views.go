package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"cardterm/domain/appdirs"
	"cardterm/domain/savedview"
	"cardterm/ui/sanitize"
)

// Saved views (domain/savedview) live in $XDG_STATE_HOME/cardterm/
// views.json, under the profile in use: the app saves them and opens them
// from its palette; `cardterm get transactions --view NAME` reads one.

// viewStore is the views of the profile in use.
func viewStore(o options) savedview.Store {
	dir := appdirs.State()
	return savedview.Store{Path: filepath.Join(dir, "cardterm", "views.json"), Profile: o.profileShown()}
}

// viewScreen is the screen whose views a look-up that takes --view reads;
// ok is false for a look-up that takes none.
func viewScreen(lookupName string) (screen string, ok bool) {
	switch lookupName {
	case "transactions", "whitelist", "consent":
		return lookupName, true
	case "onboarding", "audit":
		return "consent", true
	}
	return "", false
}

// viewLookups names the look-ups that take --view, for messages.
const viewLookups = "transactions, whitelist, consent, onboarding and audit"

// lookupView is the view --view names for the look-up, or a usage error
// naming the views there are.
func lookupView(o options, lookupName string) (*savedview.View, error) {
	if o.view == "" {
		return nil, nil
	}
	screen, ok := viewScreen(lookupName)
	if !ok {
		return nil, usageError{fmt.Sprintf("--view is for %s, not %s", viewLookups, lookupName)}
	}
	views, err := viewStore(o).Load()
	if err != nil {
		return nil, err
	}
	view, ok := savedview.Find(views, screen, o.view)
	if !ok {
		names := savedview.Names(views, screen)
		there := "none is saved: V on the app's " + screen + " screen saves one"
		if len(names) > 0 {
			there = "saved: " + strings.Join(names, ", ")
		}
		return nil, usageError{fmt.Sprintf("no %s view is called %q (%s)", screen, o.view, there)}
	}
	return &view, nil
}

// argsInView is the look-up's arguments with what a saved view fills in
// (the whitelist's currency, the consent look-ups' id) and the view; a
// look-up's own arguments follow (PAGE, OFFSET). Without --view it is
// args as given.
func argsInView(o options, args []string, stderr io.Writer) ([]string, *savedview.View, error) {
	if o.view == "" || len(args) == 0 {
		return args, nil, nil
	}
	name := args[0]
	view, err := lookupView(o, name)
	if err != nil {
		return nil, nil, err
	}
	var id string
	switch name {
	case "transactions":
		return args, view, nil
	case "whitelist":
		currency, search := view.Whitelist()
		if search != "" {
			fmt.Fprintf(stderr, "cardterm: the view's quick filter %q is the app's: this is all of %s (--jq narrows it)\n",
				sanitize.Text(search), strings.ToUpper(sanitize.Text(currency)))
		}
		id = currency
	case "consent", "audit":
		userID, onboardingID := view.Consent()
		if userID == "" {
			return nil, nil, usageError{fmt.Sprintf("the view %q looks up the onboarding %s: get onboarding --view %q", o.view, onboardingID, o.view)}
		}
		id = userID
	case "onboarding":
		userID, onboardingID := view.Consent()
		if onboardingID == "" {
			return nil, nil, usageError{fmt.Sprintf("the view %q looks up the user %s: get consent --view %q", o.view, userID, o.view)}
		}
		id = onboardingID
	}
	return append([]string{name, id}, args[1:]...), view, nil
}
