package screens_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/screens"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui"
)

// confirmation is one way to open a confirmation dialog: who signs in,
// on which screen, and the keys (and setup) that open it.
type confirmation struct {
	name   string
	user   string
	screen ui.ScreenID
	ask    func(app *screentest.App, l *screentest.InAppListener)
}

const (
	someEVMAddress = "0x52908400098527886E0F7030069857D2E4169EE7"
	someTxHash     = "0x1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f1f"
)

func keys(names ...string) func(*screentest.App, *screentest.InAppListener) {
	return func(app *screentest.App, _ *screentest.InAppListener) { app.Keys(names...) }
}

// confirmations lists every confirmation the screens open before a
// request (the support console's are its own package's).
var confirmations = []confirmation{
	{"freeze the card", "alice@demo.test", screenkit.CardScreen, keys("f")},
	{"unfreeze the card", "frank@demo.test", screenkit.CardScreen, keys("f")},
	{"order a card", "bruno@demo.test", screenkit.CardScreen, keys("n")},
	{"add whitelist entries", "alice@demo.test", screenkit.WhitelistScreen, func(app *screentest.App, _ *screentest.InAppListener) {
		app.Keys("a")
		app.Fill("Rent", "Ann", "Lee", someEVMAddress)
		app.Keys("ctrl+s")
	}},
	{"delete whitelist entries", "alice@demo.test", screenkit.WhitelistScreen, keys("space", "j", "space", "x")},
	{"withdraw", "alice@demo.test", screenkit.WalletsScreen, func(app *screentest.App, _ *screentest.InAppListener) {
		app.Keys("w")
		app.Type("100")
		app.Keys("enter")
	}},
	{"link a wallet", "alice@demo.test", screenkit.WalletsScreen, keys("j", "l")},
	{"unlink a wallet", "lena@demo.test", screenkit.WalletsScreen, keys("g", "u")},
	{"move a wallet's priority", "lena@demo.test", screenkit.WalletsScreen, keys("j", "J")},
	{"place an order", "nora@demo.test", screenkit.OrdersScreen, keys("g", "enter")},
	{"request a delegation token with gas", "alice@demo.test", screenkit.DelegationScreen, func(app *screentest.App, _ *screentest.InAppListener) {
		app.Keys("t", "tab", "ctrl+u") // the form opens with no field chosen: tab chooses the first
		app.Type("linea")
		app.Keys("tab", "ctrl+u")
		app.Type(someEVMAddress)
		app.Keys("enter")
	}},
	{"send a post-approval", "nora@demo.test", screenkit.DelegationScreen, func(app *screentest.App, _ *screentest.InAppListener) {
		app.Keys("t", "enter") // a token without gas: enter sends the form as it comes
		app.Keys("a", "tab", "tab")
		app.Type("150.00")
		app.Keys("tab", "ctrl+u")
		app.Fill(someEVMAddress, someTxHash, "0x"+strings.Repeat("ab", 65), "I approve 150 USDC")
		app.Keys("tab", "tab", "enter")
	}},
	{"add a webhook", "alice@demo.test", screenkit.WebhooksScreen, func(app *screentest.App, _ *screentest.InAppListener) {
		app.Keys("a")
		app.Fill("Ops", "https://example.test/hooks?team=ops&tries=3")
		app.Keys("tab", "tab", "space", "ctrl+s")
	}},
	{"edit a webhook", "alice@demo.test", screenkit.WebhooksScreen, func(app *screentest.App, _ *screentest.InAppListener) {
		app.Keys("e", "tab", "ctrl+u")
		app.Type("https://hooks.acme.test/v2")
		app.Keys("ctrl+s")
	}},
	{"turn a webhook off", "alice@demo.test", screenkit.WebhooksScreen, keys("t")},
	{"rotate a webhook's key", "alice@demo.test", screenkit.WebhooksScreen, keys("R")},
	{"delete a webhook", "alice@demo.test", screenkit.WebhooksScreen, keys("x")},
	{"add a webhook for the in-app listener", "alice@demo.test", screenkit.WebhooksScreen, keys("L")},
	{"point a webhook at the in-app listener", "alice@demo.test", screenkit.WebhooksScreen, keys("l")},
	{"revoke a consent", "alice@demo.test", screenkit.ConsentScreen, keys("j", "x")},
	{"link a consent set", "alice@demo.test", screenkit.ConsentScreen, func(app *screentest.App, _ *screentest.InAppListener) {
		app.Keys("b")
		app.Type("onb-demo-001")
		app.Keys("enter", "L")
		app.Type(sandbox.DemoUserID("frank@demo.test"))
		app.Keys("enter")
	}},
	{"create a consent set", "alice@demo.test", screenkit.ConsentScreen, func(app *screentest.App, _ *screentest.InAppListener) {
		app.Keys("N")
		app.Type("onb-test-7")
		app.Keys("tab", "space", "tab", "space", "ctrl+s")
	}},
	{"deliver an event again", "alice@demo.test", screenkit.EventsScreen, func(app *screentest.App, l *screentest.InAppListener) {
		hook, err := app.Client.CreateWebhook(app.T.Context(), apiclient.WebhookCreate{Name: "in-app", URL: l.URL,
			EventTypes: apiclient.SandboxEmittedEventTypes, IsActive: true})
		if err != nil {
			app.T.Fatal(err)
		}
		if err := l.Receiver.AddKey(hook.APIKey); err != nil {
			app.T.Fatal(err)
		}
		if err := app.Client.FreezeCard(app.T.Context()); err != nil {
			app.T.Fatal(err)
		}
		for deadline := time.Now().Add(5 * time.Second); len(l.Receiver.History()) == 0; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				app.T.Fatal("no delivery reached the in-app listener")
			}
		}
		app.Keys("r", "R")
	}},
}

// Every confirmation shows the request the sandbox then receives: the
// same method, path with its ids, query and body (a body too long to show
// whole is its exact beginning and its length; a delegation token is
// masked), and nothing is sent that it did not show.
func TestEveryConfirmationShowsTheRequestReceived(t *testing.T) {
	shapes := map[string]bool{}
	for _, c := range confirmations {
		t.Run(c.name, func(t *testing.T) {
			l, listener := screentest.WithInAppListener(t, true)
			app := allScreens(t, listener)
			app.SignIn(c.user)
			app.Open(c.screen)
			c.ask(app, l)
			spec, open := app.UI().Dialog()
			if !open {
				t.Fatalf("no confirmation opened; the screen shows:\n%s", app.Screen())
			}
			before := len(app.Server.Requests())
			app.Keys("y")
			received := app.Server.Requests()[before:]
			shown := shownRequests(spec.Request)
			if len(shown) == 0 {
				t.Fatalf("the confirmation %q shows no request: %q", spec.Title, spec.Request)
			}
			mustBeReceived(t, shown, received)
			shapes[requestShape(shown[0].line)] = true
		})
	}
	// No screen opens a confirmation this list leaves out: every key of
	// every screen, pressed as the sweep of TestEveryChangeConfirms... does,
	// opens only confirmations of the shapes confirmed above.
	for _, user := range []string{"alice@demo.test", "frank@demo.test", "lena@demo.test"} {
		app := allScreens(t)
		app.SignIn(user)
		for _, s := range screens.All(app.Deps) {
			app.Open(s.ID())
			for _, k := range screenKeys(app.Front()) {
				app.Keys(k)
				if spec, open := app.UI().Dialog(); open {
					if shape := requestShape(spec.Request[0]); !shapes[shape] {
						t.Errorf("%s: key %s opens %q (%s), which no case of confirmations covers", s.Title(), k, spec.Title, shape)
					}
					app.Keys("n")
				}
				for range 3 {
					if app.Front().CapturesKeys() || strings.Contains(app.Screen(), "esc back") {
						app.Keys("esc")
					}
				}
				app.Open(s.ID())
			}
		}
	}
}

// shownRequest is one request a confirmation shows: its request line and
// the body line under it, if any.
type shownRequest struct{ line, body string }

var requestLine = regexp.MustCompile(`^(GET|POST|PUT|PATCH|DELETE) /`)

// shownRequests reads a confirmation's request lines: each request line
// starts a request, a JSON line right under it is its body, other lines
// (headers named) are notes.
func shownRequests(lines []string) []shownRequest {
	var out []shownRequest
	for _, l := range lines {
		switch {
		case requestLine.MatchString(l):
			out = append(out, shownRequest{line: l})
		case len(out) > 0 && out[len(out)-1].body == "" && (strings.HasPrefix(l, "{") || strings.HasPrefix(l, "[")):
			out[len(out)-1].body = l
		}
	}
	return out
}

// mustBeReceived checks that the sandbox received the shown requests in
// their order, each with the body shown, and no change besides them
// (reads that re-read the screen's data may come between and after).
func mustBeReceived(t *testing.T, shown []shownRequest, received []sandbox.LoggedRequest) {
	t.Helper()
	i := 0
	for _, s := range shown {
		for ; i < len(received) && receivedLine(received[i]) != s.line; i++ {
			if received[i].Method != "GET" {
				t.Errorf("sent %s, which the confirmation did not show (it showed %q)", receivedLine(received[i]), s.line)
			}
		}
		if i == len(received) {
			t.Fatalf("shown %q, never received; the sandbox received %v", s.line, lines(received))
		}
		if want := shownBody(received[i].Body); s.body != want {
			t.Errorf("%s: shown body\n%s\nreceived (as shown)\n%s", s.line, s.body, want)
		}
		i++
	}
	for ; i < len(received); i++ {
		if received[i].Method != "GET" {
			t.Errorf("sent %s after the ones shown, which the confirmation did not show", receivedLine(received[i]))
		}
	}
}

// receivedLine is a received request's request line, as a confirmation
// writes it.
func receivedLine(r sandbox.LoggedRequest) string {
	if r.Query != "" {
		return r.Method + " " + r.Path + "?" + r.Query
	}
	return r.Method + " " + r.Path
}

func lines(received []sandbox.LoggedRequest) []string {
	out := make([]string, len(received))
	for i, r := range received {
		out[i] = receivedLine(r)
	}
	return out
}

// shownBody is a received body as a confirmation shows it: a delegation
// token masked, a long body cut to its beginning and its length.
func shownBody(body []byte) string {
	if len(body) == 0 {
		return ""
	}
	var fields struct {
		Token string `json:"token"`
	}
	_ = json.Unmarshal(body, &fields)
	return apiclient.ShownBody(apiclient.MaskSecrets(string(body), fields.Token))
}

var idInPath = regexp.MustCompile(`/[0-9a-fA-F-]{16,}|\?.*$`)

// requestShape is a request line with its ids and query left out:
// "DELETE /v1/webhooks/{id}".
func requestShape(line string) string { return idInPath.ReplaceAllString(line, "/{id}") }
