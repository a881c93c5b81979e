package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// A case gathered through an approved session on a gateway of another
// shape (the sandbox's alternate shapes): the card, two wallets and a
// transaction kept with ctrl+k. Reproduced with no gateway at hand (the
// settings point at a recording server, which hears nothing), the
// fixture puts them on a stand-in of the sandbox's demo tenant that shows
// the same card, wallets and transaction, and holds none of the
// customer's values.
func TestSupportReproduceWalletsAndTransactionsOfAnotherGateway(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{AltShapes: true})
	dir := t.TempDir()
	t.Chdir(dir)
	alice := sandbox.DemoUserID("alice@demo.test")
	dana := supportTerm(t, sb, dir, caseEnv(dir, customerBrowserEnv(t, "alice@demo.test")...), "--agent", "dana", alice)
	dana.waitFor("COMPLETE")
	dana.openTicket("TCK-W")
	dana.approveSession("Alice Martin")
	for _, screen := range [][2]string{{"Card", "4242"}, {"Wallets", "USDC"}, {"Transactions", "Flore"}} {
		dana.open(screen[0])
		dana.waitFor(screen[1]) // its records have come
		dana.send("C-k")
		dana.waitFor("kept in case TCK-W")
	}
	dana.open("Wallets")
	dana.send("j")
	dana.send("C-k")
	dana.waitFor("kept in case TCK-W")
	dana.endApprovedSession()
	dana.send("q")

	var asked atomic.Int32
	recorder := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { asked.Add(1) }))
	defer recorder.Close()
	out := filepath.Join(dir, "repro.json")
	_, errOut, code := sealedRun(t, append(caseEnv(dir), "CARDTERM_BASE_URL="+recorder.URL, "CARDTERM_CLIENT_KEY=ck_live_another_tenant"),
		"support", "reproduce", "TCK-W", "--output", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if n := asked.Load(); n != 0 {
		t.Fatalf("reproduce sent %d requests to a gateway", n)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("reproduce said: %s", errOut)

	// What the customer's gateway holds (the same seed, read in the
	// reference shape), to compare and to grep for.
	ctx := context.Background()
	plain := startSandboxInProcess(t, sandbox.Options{})
	customer := apiclient.New(apiclient.Config{BaseURL: plain.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	if _, err := customer.Login(ctx, "alice@demo.test", "demo-pass"); err != nil {
		t.Fatal(err)
	}
	internal, err := customer.InternalWallets(ctx)
	if err != nil || len(internal) < 2 {
		t.Fatalf("alice's wallets: %v %v", internal, err)
	}
	fixture := string(data)
	personal := []string{alice, "alice@demo.test", "@", "Alice", "Martin", "1990-04-12", "Rue des Lilas", "eyJ", "sk_", sandbox.DemoClientKey}
	for _, w := range internal {
		personal = append(personal, w.Address, w.ID)
	}
	for _, value := range personal {
		if value != "" && strings.Contains(fixture, value) {
			t.Errorf("the fixture holds %q", value)
		}
	}

	repro, err := sandbox.Start("127.0.0.1:0", sandbox.Options{Fixture: data})
	if err != nil {
		t.Fatal(err)
	}
	defer repro.Close()
	standIn := strings.Fields(errOut[strings.Index(errOut, "demo user ")+len("demo user "):])[0]
	client := apiclient.New(apiclient.Config{BaseURL: repro.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	if _, err := client.Login(ctx, standIn, "demo-pass"); err != nil {
		t.Fatal(err)
	}
	card, err := client.CardStatus(ctx)
	if err != nil || card.Status != "ACTIVE" || card.PanLast4 != "4242" {
		t.Fatalf("the stand-in's card: %+v %v", card, err)
	}
	got, err := client.InternalWallets(ctx)
	if err != nil || len(got) != 2 {
		t.Fatalf("the stand-in's wallets: %+v %v", got, err)
	}
	for i := range got {
		if got[i].Currency != internal[i].Currency || got[i].Balance != internal[i].Balance || got[i].Address == internal[i].Address {
			t.Errorf("wallet %d: %s %s %s, alice's %s %s %s", i, got[i].Currency, got[i].Balance, got[i].Address,
				internal[i].Currency, internal[i].Balance, internal[i].Address)
		}
	}
	page, err := client.Transactions(ctx, apiclient.TransactionFilter{})
	if err != nil || len(page.Transactions) != 1 {
		t.Fatalf("the stand-in's transactions: %+v %v", page.Transactions, err)
	}
	first, err := customer.Transactions(ctx, apiclient.TransactionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	x, want := page.Transactions[0], first.Transactions[0]
	if x.TransactionAmount != want.TransactionAmount || x.TransactionCurrency != want.TransactionCurrency || x.Status != want.Status ||
		x.MCC != want.MCC || x.DateTime != want.DateTime || x.MerchantNameLocation != want.MerchantNameLocation || x.ID == want.ID {
		t.Errorf("the stand-in's transaction %+v, alice's %+v", x, want)
	}
}
