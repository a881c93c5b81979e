package transactions

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"cardterm/apiclient"
	"cardterm/sandbox"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui"
)

// alertsApp signs alice in with alerts on, the Transactions screen kept
// for the test to reach its watcher.
func alertsApp(t *testing.T, on bool) (*screentest.App, *Screen) {
	var screen *Screen
	a := screentest.New(t, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(func(d screenkit.Deps) *Screen {
		screen = New(d)
		return screen
	})), func(s *screentest.Setup) {
		s.Shell.Alerts = screenkit.Alerts{On: on, Interval: 5 * time.Second, Desktop: ui.DesktopOSC777}
	})
	a.SignInDirectly("alice@demo.test")
	return a, screen
}

// A transaction declined while the app runs is told at the next read; the
// first read of the session tells nothing (it learns what is there).
func TestADeclinedTransactionIsNoticed(t *testing.T) {
	a, screen := alertsApp(t, true)
	if screen.alerts.seen == nil || !screen.alerts.baseline || a.Notice() != "" {
		t.Fatalf("the session's first read: baseline %v, notice %q", screen.alerts.baseline, a.Notice())
	}
	if _, err := a.Server.AppendTransaction("alice@demo.test", sandbox.NewTransaction{Amount: "12.40", Status: "DECLINED", Merchant: "Corner Shop, Lyon FR", DeclineReason: "CARD_FROZEN"}); err != nil {
		t.Fatal(err)
	}
	a.Drive(alertTickMsg{session: screen.alerts.session})
	if n := a.Notice(); !strings.Contains(n, "Declined: -12.40 EUR at Corner Shop, Lyon FR (CARD_FROZEN)") {
		t.Fatalf("notice %q", n)
	}
	// Nothing new: nothing said again.
	a.Drive(ui.DismissNotice(a.Notice())())
	a.Drive(alertTickMsg{session: screen.alerts.session})
	if n := a.Notice(); strings.Contains(n, "Declined") {
		t.Fatalf("told twice: %q", n)
	}
	// A tick of an ended session does nothing.
	a.Drive(alertTickMsg{session: screen.alerts.session + 99})
}

// With the setting off the list is read for the screen alone.
func TestAlertsOff(t *testing.T) {
	a, screen := alertsApp(t, false)
	if screen.alerts.seen != nil || a.Sent("GET", "/v1/card/transactions") != 1 {
		t.Fatalf("alerts off: the list read %d times (the screen's own read is 1)", a.Sent("GET", "/v1/card/transactions"))
	}
	on, _ := alertsApp(t, true)
	if n := on.Sent("GET", "/v1/card/transactions"); n != 2 {
		t.Fatalf("alerts on: the list read %d times, want the screen's and the watcher's", n)
	}
}

// A failed read waits twice as long, up to the longest back-off, and the
// gateway's Retry-After when it asks for longer; a good read goes back to
// the interval.
func TestAlertsBackOff(t *testing.T) {
	_, screen := alertsApp(t, true)
	session := screen.alerts.session
	for range 12 {
		screen.alertRead(alertReadMsg{session: session, err: errors.New("down")})
	}
	if screen.alerts.wait != maxAlertInterval {
		t.Fatalf("wait %s after many failures", screen.alerts.wait)
	}
	screen.alertRead(alertReadMsg{session: session})
	if screen.alerts.wait != 5*time.Second {
		t.Fatalf("wait %s after a good read", screen.alerts.wait)
	}
	screen.alertRead(alertReadMsg{session: session, err: &apiclient.Error{Status: 429, RetryAfter: 90 * time.Second}})
	if screen.alerts.wait != 90*time.Second {
		t.Fatalf("wait %s after a 429 asking 90s", screen.alerts.wait)
	}
}

// Where the terminal shows desktop notifications, each alert is one too.
func TestAlertDesktopNotification(t *testing.T) {
	_, screen := alertsApp(t, true)
	reason := "LIMIT_EXCEEDED"
	x := &apiclient.Transaction{ID: "t", Status: apiclient.TxDeclined, Sign: apiclient.TxDebit, TransactionAmount: "9.99", TransactionCurrency: "EUR", MerchantNameLocation: "Shop", DeclineReason: &reason}
	raw := ""
	for _, cmd := range screen.tell(nil, []*apiclient.Transaction{x}) {
		if msg, ok := cmd().(tea.RawMsg); ok {
			raw = msg.Msg.(string)
		}
	}
	if raw != "\x1b]777;notify;cardterm: Declined;-9.99 EUR at Shop (LIMIT_EXCEEDED)\x07" {
		t.Fatalf("%q", raw)
	}
}
