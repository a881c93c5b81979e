package support_test

import (
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/screens/screentest"
	"cardterm/screens/support"
)

// The console's two changes, a revoke and a link, show the request the
// sandbox then receives: the method, the path with its ids and the body,
// drawn from the apiclient declarations that send them, and nothing else
// is changed.
func TestSupportConfirmationsShowTheRequestReceived(t *testing.T) {
	withKey := screentest.WithConfig(func(c *apiclient.Config) { c.SecretKey = sandbox.DemoSecretKey })
	for name, c := range map[string]struct {
		opts support.Options
		ask  func(app *screentest.App)
	}{
		"revoke": {support.Options{User: sandbox.DemoUserID("alice@demo.test")}, func(app *screentest.App) {
			app.Keys("j", "x")
		}},
		"link": {support.Options{Onboarding: "onb-demo-001"}, func(app *screentest.App) {
			app.Keys("L")
			app.Type(sandbox.DemoUserID("nora@demo.test"))
			app.Keys("enter")
		}},
	} {
		t.Run(name, func(t *testing.T) {
			app := newConsole(t, c.opts, withKey)
			c.ask(app)
			spec, open := app.UI().Dialog()
			if !open || len(spec.Request) == 0 {
				t.Fatalf("no confirmation with a request opened:\n%s", app.Screen())
			}
			before := len(app.Server.Requests())
			app.Keys("y")
			var changes []sandbox.LoggedRequest
			for _, r := range app.Server.Requests()[before:] {
				if r.Method != "GET" {
					changes = append(changes, r)
				}
			}
			if len(changes) != 1 {
				t.Fatalf("shown %q; the sandbox received %d changes: %+v", spec.Request, len(changes), changes)
			}
			got := changes[0]
			line := got.Method + " " + got.Path
			if got.Query != "" {
				line += "?" + got.Query
			}
			if spec.Request[0] != line {
				t.Errorf("shown %q, received %q", spec.Request[0], line)
			}
			body := ""
			if len(spec.Request) > 1 {
				body = spec.Request[1]
			}
			if strings.TrimSpace(string(got.Body)) != body {
				t.Errorf("shown body %q, received %q", body, got.Body)
			}
		})
	}
}

// At 80x24 the timeline keeps half the body for its records and shows
// the gateway's blind spots as whole sentences, counting those left out,
// instead of squeezing the records to one row and cutting a sentence.
func TestSupportTimelineAt80x24KeepsItsRecordsInSight(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test")}, screentest.WithSize(80, 24))
	app.Keys("t")
	screen := app.Screen()
	if rows := strings.Count(screen, "consent audit"); rows < 8 {
		t.Fatalf("%d records in sight at 80x24:\n%s", rows, screen)
	}
	screentest.MustShow(t, screen, "What the gateway cannot tell", "more: a taller terminal shows them all")
}
