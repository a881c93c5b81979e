package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/casefile"
	"cardterm/sandbox"
)

// A case of alice's (her card kept FROZEN in an approved session, her
// whole profile kept at the agent's choice) becomes a fixture holding
// none of her values; the sandbox started with it shows the same consent
// status and card state on the stand-in demo user.
func TestSupportReproduceLeavesNoPersonalValue(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	alice := sandbox.DemoUserID("alice@demo.test")
	dir := t.TempDir()
	now := time.Now().UTC()
	c := casefile.New("TCK-R", sandbox.DemoClientKey, now)
	c.AddLookup(casefile.Lookup{Time: now, Agent: "ana", Kind: "user", ID: alice, Region: "EU", Answer: "consent status complete"})
	c.AddEvidence(casefile.Item{Time: now, Agent: "ana", Title: "card", Request: casefile.Request{Method: "GET", Path: "/v1/card/status"},
		Text: `{"id":"c0ffee00-1111-4222-8333-444455556666","holderName":"Alice Martin","panLast4":"4242","status":"FROZEN","type":"VIRTUAL","expiryDate":"2029/08","orderedAt":"2024-01-20T10:00:00Z"}`})
	c.AddEvidence(casefile.Item{Time: now, Agent: "ana", Title: "profile", Request: casefile.Request{Method: "GET", Path: "/v1/user"},
		Text: `{"id":"` + alice + `","firstName":"Alice","lastName":"Martin","email":"alice@demo.test","dateOfBirth":"1990-04-12","phoneNumber":"612345678","addressLine1":"12 Rue des Lilas","addressLine2":"Apt 4B","city":"Paris","zip":"75011","verificationState":"VERIFIED"}`})
	// The consent sets as the console's look-up read them.
	consent, err := apiclient.New(apiclient.Config{BaseURL: sb.URL, ClientKey: sandbox.DemoClientKey}).UserConsent(context.Background(), alice, true)
	if err != nil {
		t.Fatal(err)
	}
	status, _ := json.Marshal(consent)
	c.AddEvidence(casefile.Item{Time: now, Agent: "ana", Title: "consent status of user " + alice, Request: casefile.Request{Method: "GET", Path: "/v2/consent/user/" + alice},
		Text: string(status)})
	if _, err := c.Write(casefile.PathFor(dir, "TCK-R"), "ana", now); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "repro.json")
	_, errOut, code := sealedRun(t, nil, "support", "reproduce", "TCK-R", "--cases-dir", dir, "--output", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	fixture := string(data)
	for _, personal := range []string{alice, "alice@demo.test", "Alice", "Martin", "1990-04-12", "612345678", "Rue des Lilas", "Apt 4B",
		"Paris", "75011", "198.51.100.23", "203.0.113.7", "Mozilla", "eyJ", "sk_", "c0ffee00"} {
		if strings.Contains(fixture, personal) {
			t.Errorf("the fixture holds %q", personal)
		}
	}
	if !strings.Contains(errOut, "reproduced on the sandbox's demo user") {
		t.Fatalf("stderr: %s", errOut)
	}

	// The stand-in, on a sandbox started with the fixture.
	repro, err := sandbox.Start("127.0.0.1:0", sandbox.Options{Fixture: data})
	if err != nil {
		t.Fatal(err)
	}
	defer repro.Close()
	standIn := strings.Fields(errOut[strings.Index(errOut, "demo user ")+len("demo user "):])[0]
	ctx := context.Background()
	original, err := apiclient.New(apiclient.Config{BaseURL: sb.URL, ClientKey: sandbox.DemoClientKey}).UserConsent(ctx, alice, true)
	if err != nil {
		t.Fatal(err)
	}
	client := apiclient.New(apiclient.Config{BaseURL: repro.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	got, err := client.UserConsent(ctx, sandbox.DemoUserID(standIn), true)
	if err != nil || got.ConsentStatus != original.ConsentStatus || len(got.ConsentSets) != len(original.ConsentSets) {
		t.Fatalf("the stand-in's consents: %+v %v (alice's %s, %d sets)", got.ConsentStatus, err, original.ConsentStatus, len(original.ConsentSets))
	}
	if _, err := client.Login(ctx, standIn, "demo-pass"); err != nil {
		t.Fatal(err)
	}
	card, err := client.CardStatus(ctx)
	if err != nil || card.Status != "FROZEN" || card.PanLast4 != "4242" {
		t.Fatalf("the stand-in's card: %+v %v", card, err)
	}
}

// A case that kept nothing of its customer's state (a look-up alone)
// writes no fixture: it says what to gather and fails, instead of an
// empty fixture and "reproduced on ...: " with nothing after the colon.
func TestSupportReproduceOfACaseHoldingNothingWritesNoFixture(t *testing.T) {
	dir := t.TempDir()
	now := time.Now().UTC()
	c := casefile.New("TCK-E", sandbox.DemoClientKey, now)
	c.AddLookup(casefile.Lookup{Time: now, Agent: "ana", Kind: "user", ID: sandbox.DemoUserID("alice@demo.test"), Region: "EU", Answer: "consent status complete"})
	if _, err := c.Write(casefile.PathFor(dir, "TCK-E"), "ana", now); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "repro.json")
	_, errOut, code := sealedRun(t, nil, "support", "reproduce", "TCK-E", "--cases-dir", dir, "--output", out)
	if code != 1 || !strings.Contains(errOut, "holds nothing of its customer's state to reproduce; no fixture written") ||
		!strings.Contains(errOut, "not in the case: the card") || strings.Contains(errOut, "reproduced on") {
		t.Fatalf("exit %d, stderr:\n%s", code, errOut)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("a fixture was written: %v", err)
	}
}
