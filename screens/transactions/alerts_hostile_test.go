package transactions

import (
	"strings"
	"testing"
	"time"

	"cardterm/domain/statement"
	"cardterm/sandbox"
	"cardterm/sandbox/hostile"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/ui"
)

// An alert about a transaction whose every text field carries escape
// sequences (hostile.Payload) tells it in a notice, the notice log and a
// desktop notification with none of them.
func TestAlertsOfAHostileGatewayAreClean(t *testing.T) {
	var screen *Screen
	a := screentest.New(t, screentest.Of(signin.New), screentest.WithScreen(screentest.Of(func(d screenkit.Deps) *Screen {
		screen = New(d)
		return screen
	})), screentest.WithHostileGateway(true), func(s *screentest.Setup) {
		s.Shell.Alerts = screenkit.Alerts{On: true, Interval: 5 * time.Second, Desktop: ui.DesktopOSC777}
	})
	a.SignInDirectly("alice@demo.test")
	for _, status := range []string{"DECLINED", "PENDING"} {
		if _, err := a.Server.AppendTransaction("alice@demo.test", sandbox.NewTransaction{Amount: "12.40", Status: status, Merchant: "Corner Shop, Lyon FR", DeclineReason: "CARD_FROZEN"}); err != nil {
			t.Fatal(err)
		}
	}
	a.Drive(alertTickMsg{session: screen.alerts.session})
	if !strings.Contains(a.Notice(), "PWN") || len(a.Raw) == 0 {
		t.Fatalf("no alert of the hostile transactions: notice %q, desktop %q", a.Notice(), a.Raw)
	}
	a.Keys("m")
	for what, text := range map[string]string{"notice": a.Notice(), "frame": a.Root.View().Content} {
		if leaks := hostile.FrameLeaks(text); len(leaks) > 0 {
			t.Errorf("the %s carries %s:\n%q", what, strings.Join(leaks, ", "), text)
		}
	}
	for _, raw := range a.Raw {
		inner, ok := strings.CutPrefix(raw, "\x1b]777;notify;")
		inner, closed := strings.CutSuffix(inner, "\x07")
		if leaks := hostile.FrameLeaks(inner); !ok || !closed || len(leaks) > 0 || strings.Contains(inner, "\x1b") {
			t.Errorf("a desktop notification carries %s or escapes of its own: %q", strings.Join(leaks, ", "), raw)
		}
	}
}

// The export's heading draws the day it reached through sanitize like
// every other gateway text, whatever the walk let through.
func TestExportHeadingOfAHostileDayIsClean(t *testing.T) {
	r := transactionRig(t, "alice@demo.test")
	tr := r.Screen.(*Screen)
	tr.export = &exportRun{path: "x.csv", last: statement.Progress{Kept: 1, Pages: 1, Reached: "2026-10-01" + hostile.Payload, Fraction: -1}}
	if leaks := hostile.FrameLeaks(tr.exportLine(100)); len(leaks) > 0 {
		t.Fatalf("the export heading carries %s:\n%q", strings.Join(leaks, ", "), tr.exportLine(100))
	}
}
