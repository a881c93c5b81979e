package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestSetPINAndViewPIN(t *testing.T) {
	env, opened := browserRecorder(t)
	tm := startTerm(t, []string{env})
	tm.waitFor("Sandbox demo accounts", "alice@demo.test")
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")
	tm.open("Card")
	tm.waitFor("ACTIVE", "4242")

	tm.send("p")
	tm.waitFor("opened in the browser", "link valid for", "single use")
	urls := waitOpened(t, opened, 1)
	page := urls[0]
	if !strings.Contains(page, "/pin-direct/set?token=") {
		t.Fatalf("set-PIN opened %q", page)
	}
	if code := httpStatus(t, page); code != 200 {
		t.Fatalf("first visit: %d", code)
	}
	if code := httpStatus(t, page); code != 410 {
		t.Fatalf("second visit must be refused: %d", code)
	}

	tm.send("v") // nothing to choose: the PIN image opens at once
	s := tm.waitFor("PIN image opened in the browser")
	urls = waitOpened(t, opened, 2)
	img := urls[1]
	// The browser got a one-time loopback address, not the single-use image
	// URL: that never shows in a process argument.
	if !strings.Contains(img, "127.0.0.1") || !strings.Contains(img, "/open/") || strings.Contains(img, "token=") {
		t.Fatalf("view PIN opened %q", img)
	}
	for i := 0; i < 5; i++ {
		if strings.Contains(s, "details-image") || strings.Contains(s, "/open/") {
			t.Fatalf("a PIN image link is on screen:\n%s", s)
		}
		time.Sleep(100 * time.Millisecond)
		s = tm.screen()
	}
	if code := httpStatus(t, img); code != 303 {
		t.Fatalf("the one-time address answered %d, want a redirect", code)
	}
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	if resp, err := noFollow.Get(img); err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusSeeOther {
			t.Fatal("the one-time address redirected twice")
		}
	}
}

func TestOrderCardReplacesBlocked(t *testing.T) {
	tm := startTerm(t, nil)
	signInAs(tm, "bruno@demo.test")
	tm.waitFor("Bruno", "VERIFIED")
	tm.open("Card")
	tm.waitFor("BLOCKED", "0005")
	tm.confirm("n", "Order a new virtual card?", "POST /v1/card/order")
	s := tm.waitFor("ACTIVE", "new card ordered")
	if strings.Contains(s, "BLOCKED") {
		t.Fatalf("the BLOCKED card is still shown:\n%s", s)
	}
}

func TestTransactionsFilterAndPage(t *testing.T) {
	tm := startTerm(t, nil)
	tm.waitFor("Sandbox demo accounts", "alice@demo.test")
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")
	tm.open("Transactions")
	tm.waitFor("Transactions", "page 1", "row 1 of 50", "Selected transaction")
	tm.send("f")
	tm.waitFor("Filter transactions", "Category")
	tm.send("Tab", "Tab", "Tab")
	tm.typeText("groceries,restaurants")
	tm.send("Enter")
	s := tm.waitFor("category GROCERIES,RESTAURANTS", "page 1", "row 1 of 50")
	for _, other := range []string{"TRAVEL", "SHOPPING", "TRANSPORT", "UTILITIES"} {
		if strings.Contains(s, other) {
			t.Fatalf("filtered list shows %s:\n%s", other, s)
		}
	}
	tm.send("n")
	s = tm.waitFor("page 2", "category GROCERIES,RESTAURANTS")
	if strings.Contains(s, "TRAVEL") || strings.Contains(s, "no more transactions") {
		t.Fatalf("page 2 lost the filter:\n%s", s)
	}
	tm.send("p")
	tm.waitFor("page 1", "category GROCERIES,RESTAURANTS")
}
