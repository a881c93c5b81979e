package signin

import (
	"strings"
	"testing"

	"cardterm/screens/screentest"
)

// In read-only mode the browser sign-in (an OAuth authorization the
// read-only client does not send) is not offered, and ctrl+o sends
// nothing; the password sign-in still works.
func TestReadOnlyOffersNoBrowserSignIn(t *testing.T) {
	app := screentest.New(t, screentest.Of(New), screentest.ReadOnly())
	if s := app.Screen(); strings.Contains(s, "ctrl+o") || strings.Contains(s, "browser") {
		t.Fatalf("read-only mode offers the browser sign-in:\n%s", s)
	}
	app.Keys("ctrl+o")
	if n := app.Sent("GET", "/v1/auth/oauth/authorize/initiate"); n != 0 {
		t.Fatalf("ctrl+o in read-only mode sent %d initiates", n)
	}
	app.SignIn("alice@demo.test")
	if n := app.Sent("POST", "/v1/auth/login"); n != 1 {
		t.Fatalf("the password sign-in sent %d logins", n)
	}
}
