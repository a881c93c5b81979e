package transactions_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/domain/recordcommand"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/signin"
	"cardterm/screens/transactions"
)

// hostileMerchant is a merchant name a shell would run and a quote would
// break.
const hostileMerchant = `Joe's "Diner" $(touch pwned)`

// A command on a transaction runs with the record's fields, each inside
// its own argument and never through a shell: the merchant name holding
// $(touch pwned) and quotes arrives whole and creates no file. A command
// that asks for a shell gets the fields only in its environment, and no
// secret. The confirmation shows the command; the pane its output and
// exit status, which the notice log keeps.
func TestCommandsOnATransaction(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("CARDTERM_SECRET_KEY", "sk_must_not_leak")
	commands, err := recordcommand.Parse("commands.yaml", []byte(`transactions:
  - name: show merchant
    run: [printf, "[%s] [%s %s]\n", "{merchant}", "{amount}", "{currency}"]
  - name: shell merchant
    shell: 'printf "<%s> secret=%s\n" "$CARDTERM_FIELD_MERCHANT" "${CARDTERM_SECRET_KEY:-none}"; exit 3'
`))
	if err != nil {
		t.Fatal(err)
	}
	app := screentest.New(t, screentest.Of(signin.New),
		screentest.WithScreen(screentest.Of(transactions.New)), screentest.WithCommands(commands), screentest.WithSize(120, 34))
	app.SignIn("alice@demo.test")
	if _, err := app.Client.SandboxSimulate(context.Background(), apiclient.SimulateRequest{
		Type: "authorization", User: "alice@demo.test", Amount: "7.10", Merchant: hostileMerchant}); err != nil {
		t.Fatal(err)
	}
	app.Open(screenkit.TransactionsScreen)
	app.Keys("r") // it loaded at sign-in, before the simulated transaction
	app.MustShow(t, "Joe's")

	app.Keys("!")
	app.MustShow(t, "Run on this transaction", "show merchant", "shell merchant")
	app.MustNotShow(t, "transactions record")
	app.Keys("enter")
	app.MustShow(t, "Run show merchant?", `$(touch pwned)`, "without a shell")
	app.Keys("y")
	app.MustShow(t, "show merchant — exit status 0", `[`+hostileMerchant+`] [7.10 EUR]`)
	app.Keys("esc")

	app.Keys("!", "down", "enter")
	app.MustShow(t, "Run shell merchant?", "/bin/sh", "CARDTERM_FIELD_*")
	app.Keys("y")
	app.MustShow(t, "shell merchant — exit status 3", "<"+hostileMerchant+"> secret=none")
	if got := app.Notice(); !strings.Contains(got, "shell merchant exited with status 3") {
		t.Fatalf("notice %q", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Fatal("a field was run by a shell: pwned exists")
	}
}
