package runbook

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"cardterm/apiclient"
	"cardterm/domain/casefile"
	"cardterm/sandbox"
)

func TestBuiltInRunbooksParse(t *testing.T) {
	books, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"card-not-working", "consent-revoked", "missed-webhook", "onboarding-incomplete", "order-missing", "wallet-limit", "withdrawal-refused"}
	var got []string
	for _, b := range books {
		got = append(got, b.Name)
		if b.Source != "built in" || len(b.CannotTell) == 0 {
			t.Errorf("runbook %s: source %q, %d cannot-tell lines", b.Name, b.Source, len(b.CannotTell))
		}
	}
	for _, w := range want {
		if !strings.Contains(strings.Join(got, " "), w) {
			t.Errorf("no built-in runbook %s in %v", w, got)
		}
	}
}

func TestTenantRunbooksAddReplaceAndBadFilesAreSaid(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "card-not-working.yaml"), []byte("title: Our own card runbook\nfacts: [card]\nreply: Card {card.status}.\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "refund.yaml"), []byte("title: Refund\nfacts: [transactions]\nreply: Latest {transactions.latest}.\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "broken.yaml"), []byte("title: Broken\nfacts: [horoscope]\nreply: x\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "stray.yaml"), []byte("title: Stray\nfacts: [card]\nreply: '{wallets.linked}'\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a runbook"), 0o600)
	books, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), `no fact "horoscope"`) || !strings.Contains(err.Error(), "{wallets.linked}") {
		t.Fatalf("bad files not said: %v", err)
	}
	titles := map[string]string{}
	for _, b := range books {
		titles[b.Name] = b.Title
	}
	if titles["card-not-working"] != "Our own card runbook" || titles["refund"] != "Refund" || titles["wallet-limit"] == "" || titles["broken"] != "" {
		t.Fatalf("loaded %v", titles)
	}
}

// sources reads the sandbox as the console does: the client key for
// consents, and the customer's own session (here signed in with the demo
// password, standing in for the approved session) for the rest.
func sources(t *testing.T, sb *sandbox.Running, username string) Sources {
	t.Helper()
	consentRec := casefile.NewRecorder(nil, "client key", nil)
	customerRec := casefile.NewRecorder(nil, "approved session", nil)
	cred, _ := sandbox.CredentialFor(sandbox.DemoClientKey)
	cfg := apiclient.Config{BaseURL: sb.URL, ClientKey: sandbox.DemoClientKey, ClientID: cred.ClientID, SecretKey: sandbox.DemoSecretKey}
	consentCfg := cfg
	consentCfg.HTTPClient, consentCfg.SecretKey = consentRec.Client(), ""
	customerCfg := cfg
	customerCfg.HTTPClient = customerRec.Client()
	customer := apiclient.New(customerCfg)
	if _, err := customer.Login(context.Background(), username, "demo-pass"); err != nil {
		t.Fatal(err)
	}
	return Sources{UserID: sandbox.DemoUserID(username), Consent: apiclient.New(consentCfg), ConsentRec: consentRec,
		Customer: customer, CustomerRec: customerRec}
}

// Each built-in runbook on the sandbox demo user its ticket is about:
// every fact gathered with its request and hash, and the draft says them.
func TestRunbooksOnTheSandboxDemoUsers(t *testing.T) {
	sb, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	// Alice's marketing consent is revoked, as if by mistake.
	admin := apiclient.New(apiclient.Config{BaseURL: sb.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	st, err := admin.UserConsent(context.Background(), sandbox.DemoUserID("alice@demo.test"), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range apiclient.CurrentConsents(st.ConsentSets[0]) {
		if c.ConsentType == "marketingNotifications" {
			if _, err := admin.RevokeConsent(context.Background(), st.ConsentSets[0].ConsentSetID, c.ConsentID); err != nil {
				t.Fatal(err)
			}
		}
	}
	books, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Runbook{}
	for _, b := range books {
		byName[b.Name] = b
	}
	cases := []struct {
		runbook, user string
		says          []string
	}{
		{"card-not-working", "alice@demo.test", []string{"ending 4242", "Zara, Madrid ES on 2026-"}},
		{"card-not-working", "frank@demo.test", []string{"ending 1881", "FROZEN", "unfreeze it yourself", "termsAndPrivacy is denied"}},
		{"consent-revoked", "alice@demo.test", []string{"marketingNotifications was revoked on", "complete"}},
		{"wallet-limit", "lena@demo.test", []string{"5 of 5 wallets", "unlink one first"}},
		{"withdrawal-refused", "bruno@demo.test", []string{"not flagged withdrawable", "withdrawals allowed: false", "VERIFIED"}},
		{"order-missing", "nora@demo.test", []string{"your card is none", "Cards you can order now:", "order number"}},
		{"onboarding-incomplete", "pia@demo.test", []string{"Identity verification: PENDING", "cannot see from here", "Consents: none"}},
		{"missed-webhook", "alice@demo.test", []string{"verification VERIFIED", "card ACTIVE (ending 4242)", "receiver's logs"}},
	}
	for _, c := range cases {
		t.Run(c.runbook, func(t *testing.T) {
			rb, ok := byName[c.runbook]
			if !ok {
				t.Fatalf("no runbook %s", c.runbook)
			}
			res := Run(context.Background(), rb, sources(t, sb, c.user))
			for _, f := range res.Facts {
				if f.Missing != "" {
					t.Errorf("fact %s not gathered: %s", f.Name, f.Missing)
				}
				if len(f.Answers) == 0 {
					t.Errorf("fact %s names no answer", f.Name)
				}
				for _, a := range f.Answers {
					if len(a.SHA256) != 64 || a.Request.Method != "GET" || a.Request.Region != "EU" {
						t.Errorf("fact %s: answer %+v", f.Name, a)
					}
				}
			}
			for _, want := range c.says {
				if !strings.Contains(res.Draft, want) {
					t.Errorf("the draft lacks %q:\n%s", want, res.Draft)
				}
			}
			if strings.Contains(res.Draft, "[") || strings.Contains(res.Draft, "@demo.test") {
				t.Errorf("the draft has a gap or an e-mail:\n%s", res.Draft)
			}
			if isoTime.MatchString(res.Draft) {
				t.Errorf("the draft shows a gateway timestamp as it came (%s):\n%s", isoTime.FindString(res.Draft), res.Draft)
			}
			for _, f := range res.Facts {
				if isoTime.MatchString(f.Summary) {
					t.Errorf("fact %s shows a gateway timestamp as it came: %s", f.Name, f.Summary)
				}
			}
		})
	}
}

// isoTime is a gateway timestamp as it comes over the wire.
var isoTime = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d`)

// Without an approved session the customer's facts say what they need,
// and the draft says so where the value would be.
func TestRunWithoutApprovalSaysWhatWaits(t *testing.T) {
	sb, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	src := sources(t, sb, "frank@demo.test")
	src.Customer, src.CustomerRec = nil, nil
	books, _ := Load("")
	for _, rb := range books {
		if rb.Name != "card-not-working" {
			continue
		}
		res := Run(context.Background(), rb, src)
		if got := strings.Join(res.Waiting(), ","); got != "verification,card,transactions" {
			t.Fatalf("waiting %q", got)
		}
		if !strings.Contains(res.Draft, "[card.status: after the customer's approval]") || !strings.Contains(res.Draft, "termsAndPrivacy is denied") {
			t.Fatalf("draft:\n%s", res.Draft)
		}
		return
	}
	t.Fatal("no card-not-working runbook")
}

// An address is looked up in the customer's whitelist under every
// currency the customer's wallets and the gateway's chain configuration
// name, not a fixed list: an MUSD entry (a token of the chain
// configuration, outside the ten common currencies) is found, and each
// currency's answer is kept with its request.
func TestSearchAddressAcrossEveryWhitelistCurrency(t *testing.T) {
	sb, err := sandbox.Start("127.0.0.1:0", sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sb.Close()
	src := sources(t, sb, "alice@demo.test")
	for _, c := range []struct{ currency, address string }{
		{"usdt", "0x52908400098527886E0F7030069857D2E4169EE7"},
		{"musd", "0x8617E340B3D01FA5F11F306F4090FD50E238070D"},
	} {
		if err := src.Customer.AddWhitelist(context.Background(), []apiclient.NewWhitelistEntry{{Currency: c.currency, Name: "Cold wallet " + c.currency,
			BeneficiaryFirstName: "Alice", BeneficiaryLastName: "Martin", WalletAddress: c.address}}); err != nil {
			t.Fatal(err)
		}
		f := SearchAddress(context.Background(), src, strings.ToLower(c.address))
		want := `whitelist ` + strings.ToUpper(c.currency) + ` entry "Cold wallet ` + c.currency + `"`
		if f.Missing != "" || !strings.Contains(f.Summary, want) || !strings.Contains(f.Summary, "MUSD") || strings.Contains(f.Summary, "could not read") {
			t.Fatalf("%s: %+v", c.currency, f)
		}
		whitelist := 0
		for _, a := range f.Answers {
			if strings.HasPrefix(a.Request.Path, "/v1/wallet/whitelist?currency=") && len(a.SHA256) == 64 {
				whitelist++
			}
		}
		if whitelist < 3 || !strings.Contains(f.Summary, fmt.Sprintf("under %d currencies", whitelist)) {
			t.Fatalf("%d whitelist answers kept: %s", whitelist, f.Summary)
		}
	}
	other := SearchAddress(context.Background(), src, "0x000000000000000000000000000000000000dEaD")
	if !strings.Contains(other.Summary, "not found for this customer") {
		t.Fatalf("not found: %+v", other)
	}
}

// The currencies searched are the customer's and the gateway's, each once.
func TestSearchOrderKeepsEachCurrencyOnce(t *testing.T) {
	got := searchOrder([]string{"USDC", "usdc", " eth", "", "MUSD", "weth"})
	if strings.Join(got, ",") != "usdc,eth,musd,weth" {
		t.Fatalf("searchOrder: %v", got)
	}
}

// The card and verification facts read back from the summaries a case
// keeps, and nothing else does.
func TestKeptFactsReadBackFromTheirSummaries(t *testing.T) {
	if card, ok := ReadKeptCard(cardSummary("4242", "VIRTUAL", "FROZEN")); !ok || card != (KeptCard{Status: "FROZEN", Type: "VIRTUAL", Last4: "4242"}) {
		t.Errorf("card: %+v %v", card, ok)
	}
	if card, ok := ReadKeptCard(noCardSummary); !ok || !card.None {
		t.Errorf("no card: %+v %v", card, ok)
	}
	if state, ok := ReadKeptVerification(verificationSummary("VERIFIED")); !ok || state != "VERIFIED" {
		t.Errorf("verification: %q %v", state, ok)
	}
	for _, other := range []string{"", "card ending", "3 audit records; no revocation recorded", "verification ", "verification two words"} {
		if _, ok := ReadKeptCard(other); ok {
			t.Errorf("%q read as a card", other)
		}
		if _, ok := ReadKeptVerification(other); ok {
			t.Errorf("%q read as a verification", other)
		}
	}
	if FactTitle("card") != "fact: Card" || FactTitle("verification") != "fact: Identity verification" {
		t.Errorf("titles %q %q", FactTitle("card"), FactTitle("verification"))
	}
}
