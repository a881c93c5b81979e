package statement

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/sandbox/gatewaytest"
)

// signedInOn is a client of a gateway that wraps the sandbox (wrap gets
// its handler), signed in as the first demo user.
func signedInOn(t *testing.T, wrap func(http.Handler) http.Handler) *apiclient.Client {
	t.Helper()
	hs := httptest.NewServer(wrap(sandbox.New(sandbox.Options{})))
	t.Cleanup(hs.Close)
	c := apiclient.New(apiclient.Config{BaseURL: hs.URL, ClientKey: sandbox.DemoClientKey, Timeout: 5 * time.Second})
	if _, err := c.Login(context.Background(), "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	return c
}

// A gateway that ignores ?page and answers the same page for ever, with
// ids or without, ends the walk at the second page with ErrStopped and
// the reason; the first page's rows were handed on, the repeat's not.
func TestWalkStopsOnARepeatedPageWithOrWithoutIDs(t *testing.T) {
	for _, withIDs := range []bool{true, false} {
		gw := &gatewaytest.RepeatingPages{WithIDs: withIDs}
		c := signedInOn(t, func(next http.Handler) http.Handler { gw.Next = next; return gw })
		var out bytes.Buffer
		sum, err := Export(context.Background(), c, Query{}, &out, CSV, nil)
		if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "answered page 2 with page 1 again") {
			t.Fatalf("ids %t: err = %v; want the walk stopped on the repeated page", withIDs, err)
		}
		if gw.Served() != 2 || sum.Pages != 1 || sum.Kept != 3 {
			t.Errorf("ids %t: %d pages asked, summary %+v; want 2 asked and 1 page of 3 kept", withIDs, gw.Served(), sum.Progress)
		}
	}
}

// A gateway whose pages never end, each new, is stopped by the cap.
func TestWalkStopsAtThePageCap(t *testing.T) {
	gw := &gatewaytest.EndlessPages{}
	c := signedInOn(t, func(next http.Handler) http.Handler { gw.Next = next; return gw })
	p, err := Walk(context.Background(), c, Query{MaxPages: 40}, func(*apiclient.Transaction) error { return nil }, nil)
	if !errors.Is(err, ErrStopped) || !strings.Contains(err.Error(), "40 pages read") {
		t.Fatalf("err = %v", err)
	}
	if gw.Served() != 40 || p.Pages != 40 {
		t.Errorf("%d pages asked, %d walked; want 40", gw.Served(), p.Pages)
	}
}
