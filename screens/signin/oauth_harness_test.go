package signin

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui/uitest"
)

// oauthHarness drives a SignIn screen directly (Update/View), running the
// commands the test chooses, against the sandbox of a testApp.
type oauthHarness struct {
	t   *testing.T
	app *screentest.App
	s   *Screen
	// pending receives the messages of commands that block (the loopback
	// wait), run in the background.
	pending chan []tea.Msg
}

func newOAuthHarness(t *testing.T, opts ...screentest.Option) *oauthHarness {
	t.Helper()
	t.Setenv("BROWSER", "true") // "open" the link with /bin/true
	app := screentest.New(t, screentest.Of(New), opts...)
	h := &oauthHarness{t: t, app: app, s: New(app.Deps), pending: make(chan []tea.Msg, 8)}
	t.Cleanup(h.s.closeFlow)
	return h
}

// update feeds one message and returns the command.
func (h *oauthHarness) update(msg tea.Msg) tea.Cmd {
	_, cmd := h.s.Update(msg)
	return cmd
}

// feed runs cmd synchronously and feeds every message back, once.
func (h *oauthHarness) feed(cmd tea.Cmd) []tea.Cmd {
	var out []tea.Cmd
	for _, m := range uitest.Run(cmd) {
		out = append(out, h.update(m))
	}
	return out
}

// start presses ctrl+o and returns the flow once the link is there; the
// loopback wait runs in the background and lands in h.pending.
func (h *oauthHarness) start() *oauthFlow {
	h.t.Helper()
	for _, next := range h.feed(h.update(uitest.Key("ctrl+o"))) {
		go func() { h.pending <- uitest.Run(next) }()
	}
	f := h.s.flow
	if f == nil || f.Loopback == nil || f.Link == "" {
		h.t.Fatalf("flow did not start: %+v; problem %q", f, h.s.problem)
	}
	return f
}

// callback waits for the loopback's message and feeds it, running what
// follows (the exchange) to the end.
func (h *oauthHarness) callback() {
	h.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case msgs := <-h.pending:
			for _, m := range msgs {
				if cb, ok := m.(screenkit.OAuthCallbackMsg); ok {
					cmd := h.update(cb)
					for _, c := range h.feed(cmd) {
						h.feed(c)
					}
					return
				}
			}
		case <-deadline:
			h.t.Fatal("no loopback callback arrived")
		}
	}
}

// strayCallback takes the report of a refused stray request: the screen
// must answer it with a notice and a new wait, run in the background.
func (h *oauthHarness) strayCallback() {
	h.t.Helper()
	select {
	case msgs := <-h.pending:
		for _, m := range msgs {
			if cb, ok := m.(screenkit.OAuthCallbackMsg); ok && cb.Result.Stray {
				next := h.update(cb)
				if next == nil {
					h.t.Fatal("the screen stopped waiting after a stray callback")
				}
				go func() { h.pending <- uitest.Run(next) }()
				return
			}
		}
		h.t.Fatalf("no stray report among %v", msgs)
	case <-time.After(5 * time.Second):
		h.t.Fatal("the stray callback was not reported")
	}
}

func (h *oauthHarness) view(w, ht int) string { h.s.SetSize(w, ht); return uitest.Plain(h.s.View()) }

// browse plays the browser: post the demo credentials on the hosted page;
// phone=false follows the redirect to the loopback and returns that page,
// phone=true returns the code the page shows.
func browse(t *testing.T, link string, phone bool) string {
	t.Helper()
	u, _ := url.Parse(link)
	form := url.Values{"session": {u.Query().Get("session")}, "username": {"alice@demo.test"}, "password": {"demo-pass"}}
	if phone {
		form.Set("device", "phone")
	}
	resp, err := http.PostForm(u.Scheme+"://"+u.Host+"/oauth/sign-in", form)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if phone {
		m := regexp.MustCompile(`id="code">([A-Z0-9-]+)<`).FindSubmatch(body)
		if m == nil {
			t.Fatalf("no code on the page:\n%s", body)
		}
		return string(m[1])
	}
	return string(body)
}

// codeOnly signs in on the hosted page without following the redirect and
// returns the loopback URL it points to.
func codeOnly(t *testing.T, link string) *url.URL {
	t.Helper()
	u, _ := url.Parse(link)
	form := url.Values{"session": {u.Query().Get("session")}, "username": {"alice@demo.test"}, "password": {"demo-pass"}}
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := hc.PostForm(u.Scheme+"://"+u.Host+"/oauth/sign-in", form)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode != http.StatusFound {
		t.Fatalf("sign-in answered %d", resp.StatusCode)
	}
	return loc
}

func listenerClosed(t *testing.T, lb *screenkit.Loopback) {
	t.Helper()
	// Ask the listener itself: a dial could reach whatever socket the
	// kernel gave the freed port to next.
	if !lb.Closed(time.Second) {
		t.Fatalf("the loopback listener %s is still open", lb.RedirectURI())
	}
}
