package support_test

import (
	"strings"
	"testing"

	"cardterm/sandbox"
	"cardterm/screens/support"
)

// d on a case opens the selected consent's detail over it, with its ids
// whole; i inspects that consent's JSON over the detail, and esc closes
// one layer at a time: the inspector, then the detail.
func TestSupportShowsTheSelectedConsentsDetail(t *testing.T) {
	app := newConsole(t, support.Options{})
	alice := sandbox.DemoUserID("alice@demo.test")
	app.Keys("u")
	app.Type(alice)
	app.Keys("enter")
	app.MustShow(t, "User "+alice, "termsAndPrivacy")
	app.Keys("d")
	app.MustShow(t, "Consent termsAndPrivacy", "Recorded by", "Onboarding", "esc back")
	detail, _ := app.UI().TopLayer()
	app.Keys("i")
	app.MustShow(t, "JSON as the gateway sent it", `"consentType": "termsAndPrivacy"`)
	app.Keys("esc")
	if top, _ := app.UI().TopLayer(); top != detail {
		t.Fatalf("esc on the inspector left %T on top, not the detail", top)
	}
	app.Keys("esc")
	if strings.Contains(app.Screen(), "Recorded by") {
		t.Fatalf("esc did not close the detail:\n%s", app.Screen())
	}
	app.MustShow(t, "User "+alice)
}
