package consent

import (
	"path/filepath"
	"testing"

	"cardterm/domain/savedview"
	"cardterm/screens/screentest"
)

// The subject looked up (here an onboarding) saved as a view (V and a
// name) is in the state file; the view looks it up again from the
// palette, and after a restart (a new app on the same file) too.
func TestSavedConsentView(t *testing.T) {
	store := savedview.Store{Path: filepath.Join(t.TempDir(), "views.json"), Profile: "acme"}
	app := newConsentApp(t, "alice@demo.test", screentest.WithViews(store))
	app.MustShow(t, "(you)")
	app.Keys("b", "ctrl+u")
	app.Type("onb-demo-001")
	app.Keys("enter")
	app.MustShow(t, "onb-demo-001")
	app.Keys("V")
	app.MustShow(t, "Save as a view", "onboarding id: onb-demo-001")
	app.Type("demo onboarding")
	app.Keys("enter")
	app.MustShow(t, "view demo onboarding saved")
	views, err := store.Load()
	if _, onboarding := views[0].Consent(); err != nil || len(views) != 1 || onboarding != "onb-demo-001" {
		t.Fatalf("store: %+v %v", views, err)
	}

	restarted := newConsentApp(t, "alice@demo.test", screentest.WithViews(store))
	restarted.MustShow(t, "(you)")
	restarted.MustNotShow(t, "onb-demo-001")
	restarted.Keys(":")
	restarted.Type("demo onb")
	restarted.MustShow(t, "view demo onboarding on Consent")
	restarted.Keys("enter")
	restarted.MustShow(t, "onb-demo-001")
	restarted.MustNotShow(t, "(you)")
}
