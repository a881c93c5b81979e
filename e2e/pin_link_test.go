package e2e

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Once the PIN is set on the hosted page (posted by an HTTP client as a
// browser would, following the page's redirect), the Card screen says the
// link was used and when, not that it is valid for minutes more; p gets a
// new link.
func TestSetPINLinkSaysItWasUsed(t *testing.T) {
	env, opened := browserRecorder(t)
	tm := startTerm(t, []string{env})
	tm.waitFor("Sandbox demo accounts", "alice@demo.test")
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")
	tm.open("Card")
	tm.waitFor("ACTIVE", "4242")
	tm.send("p")
	tm.waitFor("link valid for", "single use")
	link := waitOpened(t, opened, 1)[0]

	browser := &http.Client{Timeout: 10 * time.Second}
	resp, err := browser.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	session := regexp.MustCompile(`name="session" value="([^"]+)"`).FindSubmatch(page)
	if session == nil {
		t.Fatalf("no PIN form at the link:\n%s", page)
	}
	u, _ := url.Parse(link)
	resp, err = browser.PostForm(u.Scheme+"://"+u.Host+"/pin-direct/set",
		url.Values{"session": {string(session[1])}, "pin": {"2468"}, "confirm": {"2468"}, "action": {"set"}})
	if err != nil {
		t.Fatal(err)
	}
	back, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(back), "Back to cardterm") {
		t.Fatalf("the page did not send the browser back to cardterm (%s):\n%s", resp.Request.URL, back)
	}

	s := tm.waitFor("link used at", "p requests a new one")
	if strings.Contains(s, "valid for") {
		t.Fatalf("a used link is shown as valid:\n%s", s)
	}
	tm.send("p")
	tm.waitFor("link valid for", "single use")
	if urls := waitOpened(t, opened, 2); urls[1] == link {
		t.Fatal("p opened the used link again")
	}
}
