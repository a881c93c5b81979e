package gatewaytest

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"
)

// SetPINInBrowser does with a set-PIN link what a browser does: it opens
// the hosted page, posts pin (twice, as the form asks) and follows the
// redirect the page answers with. It returns the last page's body.
func SetPINInBrowser(t testing.TB, link, pin string) string {
	t.Helper()
	browser := &http.Client{Timeout: 10 * time.Second}
	resp, err := browser.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	session := regexp.MustCompile(`name="session" value="([^"]+)"`).FindSubmatch(page)
	if session == nil {
		t.Fatalf("no PIN form at %s:\n%s", link, page)
	}
	u, _ := url.Parse(link)
	resp, err = browser.PostForm(u.Scheme+"://"+u.Host+"/pin-direct/set",
		url.Values{"session": {string(session[1])}, "pin": {pin}, "confirm": {pin}, "action": {"set"}})
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the page answered %d (%s):\n%s", resp.StatusCode, resp.Request.URL, body)
	}
	return string(body)
}
