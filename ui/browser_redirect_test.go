package ui

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// noFollow is a client that shows redirects instead of following them.
var noFollow = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func TestOneTimeRedirectWorksOnce(t *testing.T) {
	target := "https://gw.example/details-image?token=secret-token"
	local, _, err := oneTimeRedirect(target, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(local) == 0 || strings.Contains(local, "secret-token") {
		t.Fatalf("the loopback URL carries the secret: %s", local)
	}
	// Another path neither redirects nor uses the link up.
	if resp, err := noFollow.Get(local + "x"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("wrong path: %v %v", resp, err)
	}
	resp, err := noFollow.Get(local)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != target || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("first use: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	// Used: the second request is refused, or finds the listener closed.
	if resp, err := noFollow.Get(local); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusSeeOther {
			t.Fatal("the one-time link redirected twice")
		}
	}
}

func TestOneTimeRedirectExpires(t *testing.T) {
	local, _, err := oneTimeRedirect("https://gw.example/x", 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := noFollow.Get(local + "-not-the-path") // never uses it up
		if err != nil {
			return // closed after its lifetime
		}
		resp.Body.Close()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the loopback link is still open after its lifetime")
}

func TestOneTimeRedirectRefusesOtherSchemes(t *testing.T) {
	if _, _, err := oneTimeRedirect("file:///etc/passwd", time.Minute); err == nil {
		t.Fatal("a file: link was accepted")
	}
}
