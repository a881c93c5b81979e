package screens_test

import (
	"net/http"
	"strings"
	"testing"

	"cardterm/sandbox/gatewaytest"
	"cardterm/screens"
	"cardterm/screens/screentest"
)

// onStrictGateway is the whole app on a gateway written from the
// interface alone (gatewaytest.Strict, wrapping the sandbox without its
// announcement): every request it receives that breaks a rule of the
// interface fails t. The gateway is a remote one in staging, as a
// --base-url would present it.
func onStrictGateway(t *testing.T, opts ...screentest.Option) (*screentest.App, *gatewaytest.Strict) {
	t.Helper()
	strict := &gatewaytest.Strict{T: t}
	wrap := screentest.WithGateway(func(next http.Handler) http.Handler { strict.Next = next; return strict })
	app := allScreens(t, append([]screentest.Option{wrap, screentest.AsRemote("staging")}, opts...)...)
	return app, strict
}

// A whole session over every screen keeps to the interface: the sign-in
// screen sends nothing while it waits, and then signing in, opening every
// screen, refreshing it, pressing each of its keys and confirming every
// change the screens ask for sends only the interface's operations, each
// with the headers it requires and a body of the shape it documents.
func TestAWholeSessionKeepsToTheInterface(t *testing.T) {
	app, strict := onStrictGateway(t)
	app.Keys("tab", "tab") // the form, waiting
	if sent := strict.Requests(); len(sent) != 0 {
		t.Fatalf("the sign-in screen sent %v while it waited", sent)
	}
	if s := app.Screen(); !strings.Contains(s, "Not asked anything yet") {
		t.Errorf("the sign-in screen does not say what it knows of the gateway:\n%s", s)
	}
	for _, user := range []string{"alice@demo.test", "frank@demo.test", "nora@demo.test"} {
		app, strict = onStrictGateway(t)
		app.SignIn(user)
		for _, s := range screens.All(app.Deps) {
			app.Open(s.ID())
			app.Keys("r")
			for _, k := range screenKeys(app.UI().Active()) {
				app.Keys(k)
				if _, open := app.UI().Dialog(); open {
					app.Keys("y")
				}
				for range 3 {
					_, layerOpen := app.UI().TopLayer()
					if layerOpen || app.UI().Active().CapturesKeys() || strings.Contains(app.Screen(), "esc back") {
						app.Keys("esc")
					}
				}
				app.Open(s.ID())
			}
		}
		if n := len(strict.Requests()); n < 20 {
			t.Errorf("%s: the session sent only %d requests: %v", user, n, strict.Requests())
		}
	}
	// The changes the sweep cannot reach by one key, each confirmed.
	for _, c := range confirmations {
		if c.name == "deliver an event again" {
			continue // its setup needs the sandbox's own resend
		}
		t.Run(c.name, func(t *testing.T) {
			l, listener := screentest.WithInAppListener(t, true)
			app, _ := onStrictGateway(t, listener)
			app.SignIn(c.user)
			app.Open(c.screen)
			c.ask(app, l)
			if _, open := app.UI().Dialog(); open {
				app.Keys("y")
			}
		})
	}
}
