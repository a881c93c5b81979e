package card_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/guard"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/ui/uitest"
)

const abroadRule = `home: FR
rules:
  - name: declines abroad
    declines: 2
    within: 10m
    abroad: true
    action: freeze
    alone: %s
    cooldown: 30m
`

// guardApp signs alice in on the Card screen with rules in force.
func guardApp(t *testing.T, alone string, opts ...screentest.Option) (*screentest.App, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(guard.File(dir), []byte(strings.Replace(abroadRule, "%s", alone, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	app := newApp(t, append([]screentest.Option{screentest.WithHolderDir(dir), screentest.WithSize(120, 40)}, opts...)...)
	app.SignIn("alice@demo.test")
	app.Open(screenkit.CardScreen)
	return app, dir
}

// declineAbroad is what the alerts' read hands on: a decline in the US.
func declineAbroad(app *screentest.App, id string, minute int) {
	app.Drive(screenkit.FreshTransactionsMsg{List: []apiclient.Transaction{{ID: id,
		DateTime: screentest.Epoch.Add(time.Duration(minute) * time.Minute).Format(time.RFC3339), Sign: apiclient.TxDebit,
		Status: apiclient.TxDeclined, MerchantNameLocation: "Apple Store, New York US", TransactionAmount: "20.00", TransactionCurrency: "USD"}}})
}

// A rule that acts alone freezes on the second decline abroad with one
// POST /v1/card/freeze; a third sends nothing; an unfreeze waits for the
// cool-down; every action is in the log.
func TestGuardRuleFreezesAloneOnce(t *testing.T) {
	app, dir := guardApp(t, "true")
	declineAbroad(app, "d1", 0)
	if n := app.Sent("POST", "/v1/card/freeze"); n != 0 {
		t.Fatalf("one decline froze the card")
	}
	declineAbroad(app, "d2", 5)
	app.MustShow(t, "FROZEN")
	if !strings.Contains(app.Notice(), "Card frozen by a guard rule: declines abroad") {
		t.Fatalf("notice %q", app.Notice())
	}
	declineAbroad(app, "d3", 6)
	if n := app.Sent("POST", "/v1/card/freeze"); n != 1 {
		t.Fatalf("%d freezes sent, want 1", n)
	}
	app.Keys("f")
	if !strings.Contains(app.Notice(), "unfreeze is offered from") || app.Sent("POST", "/v1/card/unfreeze") != 0 {
		t.Fatalf("an unfreeze during the cool-down: %q", app.Notice())
	}
	log, _ := guard.ReadLog(guard.LogFile(dir), 10)
	if len(log) != 1 || log[0].Outcome != "froze the card" || log[0].Transaction != "d2" {
		t.Fatalf("log %+v", log)
	}
}

// A rule that asks opens the one confirmation, with the request it sends.
func TestGuardRuleAsksFirst(t *testing.T) {
	app, _ := guardApp(t, "false")
	declineAbroad(app, "d1", 0)
	declineAbroad(app, "d2", 1)
	app.MustShow(t, "Guard rule: freeze the card?", "POST /v1/card/freeze", "declines abroad")
	if n := app.Sent("POST", "/v1/card/freeze"); n != 0 {
		t.Fatal("a freeze was sent before the answer")
	}
	app.Keys("y")
	app.MustShow(t, "FROZEN")
	if n := app.Sent("POST", "/v1/card/freeze"); n != 1 {
		t.Fatalf("%d freezes sent, want 1", n)
	}
}

// In read-only mode the rule only notifies.
func TestGuardRuleOnlyNotifiesReadOnly(t *testing.T) {
	app, _ := guardApp(t, "true", screentest.ReadOnly())
	declineAbroad(app, "d1", 0)
	declineAbroad(app, "d2", 1)
	if n := app.Sent("POST", "/v1/card/freeze"); n != 0 || !strings.Contains(app.Notice(), "read-only mode: would freeze the card") {
		t.Fatalf("read-only: %d freezes, notice %q", n, app.Notice())
	}
}

// g opens the panel (a layer), d runs the rules over the history, e
// opens the editor; a malformed save is refused with its line and field
// and nothing is written.
func TestGuardPanelDryRunAndEditor(t *testing.T) {
	app, dir := guardApp(t, "true")
	app.Keys("g")
	app.MustShow(t, "Guard rules", "declines abroad: 2 declines within 10m, abroad (not FR) → freeze alone, cool-down 30m")
	app.Keys("d")
	app.MustShow(t, "transactions read: the rules would have acted")
	app.Keys("e")
	app.MustShow(t, "Guard rules (YAML)", "home: FR")
	app.Keys("ctrl+home")
	app.Type("rules: 3\n")
	app.Keys("ctrl+s")
	app.MustShow(t, "guard.yaml:1: rules: must be a list of rules")
	data, _ := os.ReadFile(filepath.Join(dir, "guard.yaml"))
	if strings.HasPrefix(string(data), "rules: 3") {
		t.Fatal("a malformed file was written")
	}
}

// The guard panel and the rule editor at 80x24 and 200x60 (reviewed).
func TestGuardGoldens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 60}} {
		app, _ := guardApp(t, "true", screentest.WithSize(size[0], size[1]), screentest.WithNoColor(true))
		declineAbroad(app, "d1", 0)
		declineAbroad(app, "d2", 1)
		app.Keys("g", "d")
		name := strings.ReplaceAll(strings.Trim(strings.Join(strings.Fields(fmt.Sprint(size)), "x"), "[]"), " ", "x")
		uitest.Golden(t, "panel-"+name, app.UI().BodyView())
		app.Keys("e")
		uitest.Golden(t, "editor-"+name, app.UI().BodyView())
	}
}

// The guard panel's hints name the keys in force: a keys file that moves
// the editor and the dry run moves the words with them.
func TestGuardPanelHintsNameTheKeysInForce(t *testing.T) {
	uitest.UseKeys(t, "guard.edit: E\nguard.dry-run: x\n")
	app := newApp(t, screentest.WithHolderDir(t.TempDir()), screentest.WithSize(120, 40))
	app.SignIn("alice@demo.test")
	app.Open(screenkit.CardScreen)
	app.Keys("g")
	app.MustShow(t, "No rules yet: E writes them", "x shows what the rules would have done")
}
