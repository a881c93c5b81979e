package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"cardterm/domain/casefile"
	"cardterm/sandbox"
)

// Support cases end to end, in tmux against a sandbox served by the test
// process: a case worked by one agent, handed over as a file, and
// finished by another.

// caseEnv seals a console's folders under dir: its cases are kept in
// dir/data/cardterm/cases, its runbooks read from dir/config.
func caseEnv(dir string, env ...string) []string {
	return append([]string{"XDG_DATA_HOME=" + filepath.Join(dir, "data"), "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"),
		"XDG_CACHE_HOME=" + filepath.Join(dir, "cache")}, env...)
}

// newestExport reads the newest case export of ticket in dir.
func newestExport(t *testing.T, dir, ticket, ext string) string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "case-"+ticket+"-*."+ext))
	if len(files) == 0 {
		t.Fatalf("no %s export of case %s in %s", ext, ticket, dir)
	}
	data, err := os.ReadFile(files[len(files)-1])
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Dana looks alice up, sets the ticket, follows alice's consent set to its
// onboarding and back (two more look-ups, the ticket kept), writes a note,
// keeps alice's card from a customer-approved session as evidence, and
// exports the case. Eli opens the case file with --case, goes on with its
// last look-up and adds a note. The export holds both agents' notes, the
// evidence with its request and hash, and no secret or customer e-mail.
func TestSupportCaseHandedOverToASecondAgent(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	t.Chdir(dir) // exports land in the current folder
	alice := sandbox.DemoUserID("alice@demo.test")
	casePath := filepath.Join(dir, "data", "cardterm", "cases", "case-TCK-77.json")

	dana := supportTerm(t, sb, dir, caseEnv(dir, customerBrowserEnv(t, "alice@demo.test")...), "--agent", "dana", alice)
	dana.waitFor("COMPLETE")
	dana.openTicket("TCK-77")
	dana.waitFor("Case TCK-77 · 1 look-up")
	// enter follows the set to its onboarding, and from there to its user.
	dana.send("Enter")
	dana.waitFor("Onboarding onb-alice-2025", "ticket TCK-77", "Case TCK-77 · 2 look-ups")
	dana.send("Enter")
	dana.waitFor("User "+alice, "ticket TCK-77", "Case TCK-77 · 3 look-ups")

	dana.send("n")
	dana.waitFor("Note for case TCK-77")
	dana.typeText("Alice (alice@demo.test) says her card is refused.")
	dana.send("Enter")
	dana.typeText("Asked her to approve a session.")
	dana.send("C-s")
	dana.waitFor("note added to case TCK-77", "1 note")

	dana.approveSession("Alice Martin")
	dana.open("Card")
	dana.waitFor("4242", "ACTIVE")
	dana.send("C-k")
	dana.waitFor("kept in case TCK-77", "GET /v1/card/status")
	dana.confirm("S", "End the customer-approved session?", "DELETE /v1/auth/oauth/revoke")
	dana.waitFor("customer-approved session ended", "1 piece of evidence")
	dana.send("e")
	dana.waitFor("case written to")
	dana.send("q")

	if _, err := os.Stat(casePath); err != nil {
		t.Fatalf("the case file is not where it belongs: %v", err)
	}
	eli := supportTerm(t, sb, dir, caseEnv(dir), "--agent", "eli", "--case", casePath)
	eli.waitFor("case TCK-77 opened", "agents dana", "User "+alice, "ticket TCK-77")
	eli.send("n")
	eli.waitFor("Note for case TCK-77")
	eli.typeText("Called alice back: the card works again.")
	eli.send("C-s")
	eli.waitFor("note added to case TCK-77", "2 notes")
	eli.send("N")
	eli.waitFor("Case TCK-77", "agents dana, eli", "Asked her to approve a session.", "Called alice back")
	eli.send("e")
	eli.waitFor("case written to")

	md, js := newestExport(t, dir, "TCK-77", "md"), newestExport(t, dir, "TCK-77", "json")
	for _, want := range []string{"Asked her to approve a session.", "Called alice back: the card works again.", "· dana", "· eli",
		"`GET /v1/card/status`", "approved session", "SHA-256 of the answer", "exported", "by eli", "evidence kept"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown export lacks %q:\n%s", want, md)
		}
	}
	var e struct {
		ExportedBy    string `json:"exportedBy"`
		ConsentStatus string `json:"consentStatus"`
		Case          struct {
			Notes []struct {
				Agent, Text string
			} `json:"notes"`
			Evidence []struct {
				Title   string                                     `json:"title"`
				Request struct{ Method, Path, Region, Via string } `json:"request"`
				SHA256  string                                     `json:"sha256"`
			} `json:"evidence"`
			Lookups []struct{ Agent, Kind, ID string } `json:"lookups"`
		} `json:"case"`
	}
	if err := json.Unmarshal([]byte(js), &e); err != nil {
		t.Fatalf("the JSON export: %v\n%s", err, js)
	}
	if e.ExportedBy != "eli" || e.ConsentStatus != "complete" || len(e.Case.Notes) != 2 || e.Case.Notes[0].Agent != "dana" || e.Case.Notes[1].Agent != "eli" {
		t.Fatalf("the JSON export's notes: %+v", e)
	}
	if len(e.Case.Lookups) < 4 || e.Case.Lookups[1].Kind != "onboarding" || e.Case.Lookups[len(e.Case.Lookups)-1].Agent != "eli" {
		t.Fatalf("the JSON export's look-ups: %+v", e.Case.Lookups)
	}
	ev := e.Case.Evidence
	if len(ev) != 1 || ev[0].Request.Method != "GET" || ev[0].Request.Path != "/v1/card/status" || ev[0].Request.Region != "EU" ||
		ev[0].Request.Via != "approved session" || !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(ev[0].SHA256) {
		t.Fatalf("the JSON export's evidence: %+v", ev)
	}
	for _, leak := range []string{"@demo.test", sandbox.DemoSecretKey, "access_token", "refresh_token", "eyJ", "demo-pass"} {
		if strings.Contains(md, leak) || strings.Contains(js, leak) {
			t.Fatalf("the export holds %q:\n%s\n%s", leak, md, js)
		}
	}
	noSecretUnder(t, filepath.Join(dir, "data"), sandbox.DemoSecretKey, "@demo.test")
}

// A runbook run before the customer's approval gathers what the client
// key reads, waits for the rest, and goes on by itself when the customer
// approves a session: the draft in the case's notes then holds the card's
// state read in that session.
func TestSupportRunbookGoesOnUnderTheApprovedSession(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	frank := sandbox.DemoUserID("frank@demo.test")
	tm := supportTerm(t, sb, dir, caseEnv(dir, customerBrowserEnv(t, "frank@demo.test")...), "--agent", "dana", frank)
	tm.waitFor("INCOMPLETE")
	tm.openTicket("TCK-88")
	tm.send("B")
	tm.waitFor("Run a runbook", "Card not working", "cannot tell: Card state changes carry no actor or time")
	tm.send("Enter")
	tm.waitFor("wait for the customer's approval")
	tm.approveSession("Frank Osei")
	tm.endApprovedSession()
	tm.send("N")
	tm.waitFor("draft from runbook card-not-working", "Your card ending 1881 (PHYSICAL) is FROZEN", "termsAndPrivacy is denied")
	s := tm.screen()
	if strings.Contains(s, "after the customer's approval]") {
		t.Fatalf("the draft still waits for the approval:\n%s", s)
	}
	// The first run kept what the client key reads; going on keeps only
	// the facts that waited, each fact once.
	path := casefile.PathFor(filepath.Join(dir, "data", "cardterm", "cases"), "TCK-88")
	var titles []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		c, err := casefile.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		titles = titles[:0]
		for _, it := range c.Evidence {
			titles = append(titles, it.Title)
		}
		if len(titles) >= 4 {
			break
		}
	}
	if got := strings.Join(titles, ", "); got != "fact: Consent status, fact: Identity verification, fact: Card, fact: Card transactions" {
		t.Fatalf("the case's evidence after the run went on: %s", got)
	}
}

// A wallet address typed in the user-id field waits for the customer's
// approval, then is searched in their whitelist under every currency; the
// answer is kept in the case as evidence.
func TestSupportAddressSearchUnderTheApprovedSession(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	alice := sandbox.DemoUserID("alice@demo.test")
	tm := supportTerm(t, sb, dir, caseEnv(dir, customerBrowserEnv(t, "alice@demo.test")...), "--agent", "dana", alice)
	tm.waitFor("COMPLETE")
	tm.openTicket("TCK-55")
	tm.send("Escape")
	tm.waitFor("Recent look-ups")
	tm.send("u")
	tm.waitFor("Look up a customer by user id")
	tm.typeText("0x000000000000000000000000000000000000dEaD")
	tm.send("Enter")
	tm.waitFor("it is looked up in the whitelist of user " + alice)
	tm.send("Enter") // the recent look-up: alice's case again
	tm.waitFor("User "+alice, "COMPLETE")
	tm.approveSession("Alice Martin")
	tm.endApprovedSession()
	tm.send("N")
	tm.waitFor("fact: Wallet address 0x000000000000000000000000000000000000dEaD", "not found for this customer", "/v1/wallet/whitelist?currency=")
	// Every currency of the customer's wallets and the chain
	// configuration, MUSD among them.
	if n := sent(sb, "GET", "/v1/wallet/whitelist"); n < 5 {
		t.Fatalf("the search read %d whitelist currencies", n)
	}
	tm.waitFor("MUSD")
}

// openTicket presses T, gives the ticket and waits until the case is named
// by it (its first look-up already counted).
func (tm *tmuxTerm) openTicket(ticket string) {
	tm.t.Helper()
	tm.send("T")
	tm.waitFor("Ticket for this case")
	tm.typeText(ticket)
	tm.send("Enter")
	tm.waitFor("Case " + ticket)
}

// approveSession presses ctrl+o for a customer-approved session, gives
// the demo secret key and waits until the session of customer is on (the
// customer's browser, customerBrowserEnv, approves by itself).
func (tm *tmuxTerm) approveSession(customer string) {
	tm.t.Helper()
	tm.send("C-o")
	tm.waitFor("The secret key is needed")
	tm.typeText(sandbox.DemoSecretKey)
	tm.send("Enter")
	tm.waitFor("CUSTOMER-APPROVED SESSION: " + customer)
}

// endApprovedSession ends the customer-approved session with S, through
// its confirmation, and waits until it has ended.
func (tm *tmuxTerm) endApprovedSession() {
	tm.t.Helper()
	tm.confirm("S", "End the customer-approved session?", "DELETE /v1/auth/oauth/revoke")
	tm.waitFor("customer-approved session ended")
}
