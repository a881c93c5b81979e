package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
	"cardterm/sandbox/gatewaytest"
)

// gatewayArgs serves wrap(a sandbox) and is the flags that point at it.
func gatewayArgs(t *testing.T, wrap func(http.Handler) http.Handler) []string {
	t.Helper()
	hs := httptest.NewServer(wrap(sandbox.New(sandbox.Options{})))
	t.Cleanup(hs.Close)
	return []string{"--base-url", hs.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox"}
}

// get transactions --all on a gateway that ignores ?page stops at the
// repeated page, with ids or without: the reason on stderr, exit 5 (a
// script can tell an incomplete statement), the first page's rows out.
func TestGetTransactionsAllStopsOnARepeatedPage(t *testing.T) {
	for _, withIDs := range []bool{true, false} {
		gw := &gatewaytest.RepeatingPages{WithIDs: withIDs}
		args := gatewayArgs(t, func(next http.Handler) http.Handler { gw.Next = next; return gw })
		out, errOut, code := cliRun(t, alice, append([]string{"get", "transactions", "--all", "--format", "csv"}, args...)...)
		if code != exitIncomplete || !strings.Contains(errOut, "answered page 2 with page 1 again") {
			t.Fatalf("ids %t: exit %d, stderr %q; want 5 and the reason", withIDs, code, errOut)
		}
		if rows := strings.Count(out, "\n"); rows != 4 || gw.Served() != 2 {
			t.Errorf("ids %t: %d lines out, %d pages asked; want a header and 3 rows, 2 pages", withIDs, rows, gw.Served())
		}
	}
}

// A look-up answered 429 with Retry-After: 30 is not sent again: one
// request, exit 1 at once (not after 30 s), and stderr says when.
func TestGetKeepsAGatewaysRetryAfter(t *testing.T) {
	limited := &gatewaytest.RetryAfter{Method: http.MethodGet, Path: "/v1/card/status", Seconds: 30, Now: time.Now}
	args := gatewayArgs(t, func(next http.Handler) http.Handler { limited.Next = next; return limited })
	start := time.Now()
	_, errOut, code := cliRun(t, alice, append([]string{"get", "card"}, args...)...)
	if code != exitRefused || !strings.Contains(errOut, "retry in 30s") {
		t.Fatalf("exit %d, stderr %q; want 1 and when to retry", code, errOut)
	}
	if hits := len(limited.Hits()); hits != 1 || time.Since(start) > 20*time.Second {
		t.Errorf("%d requests to the endpoint in %v; want 1, at once", hits, time.Since(start))
	}
}
