package transactions

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox/gatewaytest"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui"
)

// A gateway answering the transaction list 429 with Retry-After: 30 gets
// no request to it for 30 s, on the manual clock: not from the screen's
// refresh, its pages, the alerts' reads, nor the export; the screen says
// until when. At the time, the list is read again.
func TestRetryAfterIsKeptByTheScreenAndTheAlerts(t *testing.T) {
	limited := &gatewaytest.RetryAfter{Method: http.MethodGet, Path: "/v1/card/transactions", Seconds: 30}
	var screen *Screen
	a := screentest.New(t, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(func(d screenkit.Deps) *Screen {
		screen = New(d)
		return screen
	})), screentest.WithGateway(func(next http.Handler) http.Handler { limited.Next = next; return limited }),
		func(s *screentest.Setup) {
			s.Shell.Alerts = screenkit.Alerts{On: true, Interval: 5 * time.Second, Desktop: ui.DesktopOSC777}
		})
	limited.Now = a.Clock.Now
	a.SignInDirectly("alice@demo.test")
	a.Open(screenkit.TransactionsScreen)
	if len(limited.Hits()) == 0 {
		t.Fatal("the list was never asked")
	}
	for step := 0; step < 28; step += 4 { // to 28 s after the 429
		a.Clock.Advance(4 * time.Second)
		a.Keys("r")                                           // the screen
		a.Drive(alertTickMsg{session: screen.alerts.session}) // the alerts
		a.Keys("n")                                           // the next page
		if early := limited.Early(); early != 0 {
			t.Fatalf("%d requests reached the list within its Retry-After (at +%ds)", early, step+4)
		}
	}
	if s := a.Screen(); !containsAny(s, "asked to wait until 09:00:30") {
		t.Errorf("the screen does not say the gateway asked to wait:\n%s", s)
	}
	if _, err := a.Client.Transactions(t.Context(), apiclient.TransactionFilter{}); !apiclient.IsRateLimited(err) {
		t.Errorf("a look-up within the Retry-After: %v", err)
	}
	a.Clock.Advance(2 * time.Second) // 30 s after the 429
	before := len(limited.Hits())
	a.Keys("r")
	if len(limited.Hits()) == before {
		t.Fatal("at its time the list was not read again")
	}
}

func containsAny(s string, parts ...string) bool {
	for _, p := range parts {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}
