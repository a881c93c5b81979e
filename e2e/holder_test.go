package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
)

// startHolderApp runs the app on sb at width x height, alerts read every
// 2 s, and signs alice in.
func startHolderApp(t *testing.T, sb *sandbox.Running, width, height string) *tmuxTerm {
	t.Helper()
	tm := startTermSized(t, width, height, []string{"CARDTERM_SECRET_KEY=" + sandbox.DemoSecretKey},
		"--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox", "--alert-interval", "2s")
	tm.waitFor("Sign in to the Card and Wallet Gateway")
	tm.signInWithForm("alice@demo.test", "demo-pass")
	tm.waitFor("User id") // signed in: the Account screen
	return tm
}

// simulateOn makes a simulated step happen for alice on sb.
func simulateOn(t *testing.T, sb *sandbox.Running, args ...string) {
	t.Helper()
	out, errOut, code := sealedRun(t, nil, append([]string{"sandbox", "simulate", "--base-url", sb.URL, "--user", "alice@demo.test"}, args...)...)
	if code != 0 {
		t.Fatalf("sandbox simulate %v: exit %d: %s%s", args, code, out, errOut)
	}
}

// TestBudgetAlertsAt80And100E2E: a budget set on the Spending screen's
// form, then simulated payments crossing 80% and 100%: both alerts
// show, the Budgets view moves, and get budgets --json agrees.
func TestBudgetAlertsAt80And100E2E(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	tm := startHolderApp(t, sb, "120", "40")
	tm.open("Spending")
	tm.waitFor("Spent ")
	tm.send("b")
	tm.waitFor("Monthly budget", "Currency")
	tm.send("Tab")
	tm.typeText("OTHER") // the sandbox's category of MCC 5999: alice has spent none
	tm.send("Tab")
	tm.typeText("100")
	tm.send("C-s")
	tm.waitFor("budget saved")
	for range 4 {
		tm.send("v")
	}
	tm.waitFor("[Budgets]", "OTHER", "0.00 of 100 EUR    0%")

	// The transaction alert of the same read may replace the budget's
	// notice at once: the notices log (m) keeps both.
	simulateOn(t, sb, "authorization", "--amount", "80", "--mcc", "5999", "--merchant", "Corner Shop, Paris FR")
	tm.waitFor("80.00 of 100 EUR   80%")
	tm.send("m")
	tm.waitFor("Budget: OTHER EUR budget at 80% (80.00 of 100)")
	tm.send("Escape")
	tm.waitGone("Budget: OTHER EUR budget at 80%")
	simulateOn(t, sb, "authorization", "--amount", "25", "--mcc", "5999", "--merchant", "Corner Shop, Paris FR")
	tm.waitFor("105.00 of 100 EUR  105%  over 5.00")
	tm.send("m")
	tm.waitFor("Budget: OTHER EUR budget at 80% (80.00 of 100)", "Budget: OTHER EUR budget at 105% (105.00 of 100)")
	tm.send("Escape")

	out, errOut, code := sealedRun(t, []string{"CARDTERM_USERNAME=alice@demo.test", "CARDTERM_PASSWORD=demo-pass"},
		"get", "budgets", "--json", "--base-url", sb.URL, "--client-key", sandbox.DemoClientKey)
	var report struct {
		Month   string `json:"month"`
		Budgets []struct {
			Budget  struct{ Currency, Category, Limit string } `json:"budget"`
			Spent   string                                     `json:"spent"`
			Percent int                                        `json:"percent"`
		} `json:"budgets"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &report) != nil || len(report.Budgets) != 1 {
		t.Fatalf("get budgets: exit %d: %s%s", code, out, errOut)
	}
	if b := report.Budgets[0]; b.Budget.Category != "OTHER" || b.Spent != "105.00" || b.Percent != 105 || report.Month != time.Now().UTC().Format("2006-01") {
		t.Fatalf("get budgets disagrees with the screen: %s", out)
	}
}

// TestRecurringPriceChangeE2E: the demo history's subscriptions are found
// with their next dates; a simulated payment at a new price flags the
// change. The sandbox's clock is the day after the plan's month (its
// payments come on the 1st), so the payment falls in its rhythm.
func TestRecurringPriceChangeE2E(t *testing.T) {
	clock := sandbox.NewManualClock(time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC))
	sb := startSandboxInProcess(t, sandbox.Options{Clock: clock})
	tm := startHolderApp(t, sb, "200", "60")
	tm.open("Spending")
	tm.waitFor("Spent ")
	for range 5 {
		tm.send("v")
	}
	tm.waitFor("[Recurring]", "Netflix Premium, Los Gatos US", "next 2026-12-01", "Basic-Fit Gym, Paris FR", "weekly", "price 14.04→16.38")
	simulateOn(t, sb, "authorization", "--amount", "19.99", "--mcc", "4899", "--merchant", "Netflix Premium, Los Gatos US")
	if s := tm.waitFor("price 17.99→19.99"); !strings.Contains(s, "next 2026-12-30") {
		t.Fatalf("the next date did not move:\n%s", s)
	}
	tm.send("m")
	tm.waitFor("Price change: Netflix Premium, Los Gatos US: 17.99 → 19.99 EUR")
}

// TestStatementCarriesNotesAndTags: get transactions --all writes the
// holder's note and tags in the last two columns.
func TestStatementCarriesNotesAndTags(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	holder := []string{"CARDTERM_USERNAME=alice@demo.test", "CARDTERM_PASSWORD=demo-pass"}
	gateway := []string{"--base-url", sb.URL, "--client-key", sandbox.DemoClientKey}
	first, _, code := sealedRun(t, holder, append([]string{"get", "transactions", "--format", "csv"}, gateway...)...)
	rows := strings.Split(strings.TrimSpace(first), "\n")
	if code != 0 || len(rows) < 2 {
		t.Fatalf("get transactions: exit %d\n%s", code, first)
	}
	id, _, _ := strings.Cut(rows[1], ",")
	writeHolderFile(t, "notes-alice@demo.test.json", `{"`+id+`": {"note": "hotel, to claim", "tags": ["work", "q4"]}}`)
	out, errOut, code := sealedRun(t, holder, append([]string{"get", "transactions", "--all", "--format", "csv"}, gateway...)...)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || !strings.HasSuffix(lines[0], ",note,tags") {
		t.Fatalf("exit %d: %s\n%.300s", code, errOut, out)
	}
	found := 0
	for _, l := range lines[1:] {
		if strings.HasPrefix(l, id+",") {
			found++
			if !strings.HasSuffix(l, `,"hotel, to claim",work q4`) {
				t.Fatalf("the row lacks its note and tags: %s", l)
			}
		} else if !strings.HasSuffix(l, ",,") {
			t.Fatalf("a row without a note has something in its columns: %s", l)
		}
	}
	if found != 1 {
		t.Fatalf("the noted row appears %d times", found)
	}
}
