package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/sandbox"
)

// The ten typical support tickets, each worked in the console from the
// moment the agent opens the customer's case (cardterm support USER_ID)
// to the moment the facts and the drafted reply are on screen, with what
// the interface cannot tell said there too. The keys each takes are
// counted (a pasted ticket or key counts as one) and the time is logged
// (go test -run TestTenSupportTickets -v prints the table); the test
// asserts what is on screen, never the time.

// ticketRun counts the keys a ticket takes.
type ticketRun struct {
	tm   *tmuxTerm
	keys int
}

func (r *ticketRun) press(keys ...string) { r.keys += len(keys); r.tm.send(keys...) }
func (r *ticketRun) paste(text string)    { r.keys++; r.tm.typeText(text) }

// runbookAt is each built-in runbook's place in the chooser (by title).
var runbookAt = map[string]int{"card-not-working": 0, "consent-revoked": 1, "onboarding-incomplete": 2, "order-missing": 3,
	"missed-webhook": 4, "wallet-limit": 5, "withdrawal-refused": 6}

type supportTicket struct {
	name, user string
	runbook    string // "" for none
	approval   bool   // the customer approves a session
	timeline   bool   // the agent opens the timeline at the end
	// shows are the facts on screen at the end; outOfReach is the
	// sentence that says what the interface cannot tell.
	shows      []string
	outOfReach string
}

var supportTickets = []supportTicket{
	{name: "card stopped working", user: "frank@demo.test", runbook: "card-not-working", approval: true,
		shows: []string{"Your card ending 1881 (PHYSICAL) is FROZEN", "every payment is declined"}, outOfReach: "Card state changes carry no actor or time"},
	{name: "revoked by mistake", user: "alice@demo.test", runbook: "consent-revoked",
		shows: []string{"marketingNotifications was revoked on"}, outOfReach: "cannot be granted again from the support console"},
	{name: "sixth wallet", user: "lena@demo.test", runbook: "wallet-limit", approval: true,
		shows: []string{"Your card has 5 of 5 wallets linked", "unlink one first"}, outOfReach: "whether a tenant may raise that limit is not shown"},
	{name: "withdrawal refused", user: "bruno@demo.test", runbook: "withdrawal-refused", approval: true,
		shows: []string{"withdrawals allowed: false", "not flagged withdrawable"}, outOfReach: "The status codes of a refused withdrawal are not shown"},
	{name: "faucet missing", user: "faye@demo.test", timeline: true,
		shows: []string{"Timeline", "0 records"}, outOfReach: "The faucet's state is only known when a delegation token is requested"},
	{name: "order missing", user: "nora@demo.test", runbook: "order-missing", approval: true,
		shows: []string{"your card is none", "Cards you can order now:"}, outOfReach: "The interface lists no orders"},
	{name: "onboarding incomplete", user: "pia@demo.test", runbook: "onboarding-incomplete", approval: true,
		shows: []string{"Consents: none", "Identity verification: PENDING"}, outOfReach: "Verification reasons are not exposed"},
	{name: "payment twice", user: "alice@demo.test", runbook: "card-not-working", approval: true, timeline: true,
		shows: []string{"card transactions", "Cafe de Flore"}, outOfReach: "one payment taken twice or a hold and its settlement"},
	{name: "partner missed an event", user: "alice@demo.test", runbook: "missed-webhook", approval: true,
		shows: []string{"identity verification VERIFIED", "card ACTIVE (ending 4242)"}, outOfReach: "Webhook deliveries are not in the gateway's interface"},
	{name: "verification pending", user: "pia@demo.test", timeline: true,
		shows: []string{"Timeline"}, outOfReach: "Verification reasons and transitions are not exposed"},
}

func TestTenSupportTickets(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	revokeMarketing(t, sb, "alice@demo.test")
	var table []string
	for i, tk := range supportTickets {
		t.Run(tk.name, func(t *testing.T) {
			dir := t.TempDir()
			tm := supportTerm(t, sb, dir, caseEnv(dir, customerBrowserEnv(t, tk.user)...), "--agent", "dana", sandbox.DemoUserID(tk.user))
			tm.waitFor("Consent ")
			r := &ticketRun{tm: tm}
			start := time.Now()
			ticket := fmt.Sprintf("TCK-%d", 100+i)
			r.press("T")
			tm.waitFor("Ticket for this case")
			r.paste(ticket)
			r.press("Enter")
			tm.waitFor("Case " + ticket)
			if tk.runbook != "" {
				r.press("B")
				tm.waitFor("Run a runbook")
				for range runbookAt[tk.runbook] {
					r.press("j")
				}
				r.press("Enter")
				tm.waitFor("runbook ")
			}
			if tk.approval {
				r.press("C-o")
				tm.waitFor("The secret key is needed")
				r.paste(sandbox.DemoSecretKey)
				r.press("Enter")
				tm.waitFor("CUSTOMER-APPROVED SESSION:")
				r.press("S")
				tm.waitFor("End the customer-approved session?")
				r.press("y")
				tm.waitFor("customer-approved session ended")
			}
			if tk.timeline {
				r.press("t")
				tm.waitFor("What the gateway cannot tell")
			} else {
				r.press("N")
				tm.waitFor("Case " + ticket)
			}
			tm.waitFor(tk.shows...)
			if !tk.timeline {
				tm.waitFor("What the interface cannot tell", tk.outOfReach)
			} else {
				tm.waitFor(tk.outOfReach)
			}
			took := time.Since(start)
			table = append(table, fmt.Sprintf("| %s | %s | %d | %.1f s | %s |", tk.name, tk.user, r.keys, took.Seconds(), tk.outOfReach))
		})
	}
	t.Logf("\n| Ticket | Demo user | Keys | Seconds | Said on screen as out of reach |\n|---|---|---|---|---|\n%s", strings.Join(table, "\n"))
}

// revokeMarketing revokes a user's marketing consent, as a customer's
// mistaken click would.
func revokeMarketing(t *testing.T, sb *sandbox.Running, username string) {
	t.Helper()
	c := apiclient.New(apiclient.Config{BaseURL: sb.URL, ClientKey: sandbox.DemoClientKey, SecretKey: sandbox.DemoSecretKey})
	st, err := c.UserConsent(context.Background(), sandbox.DemoUserID(username), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range st.ConsentSets {
		for _, consent := range apiclient.CurrentConsents(set) {
			if consent.ConsentType == "marketingNotifications" {
				if _, err := c.RevokeConsent(context.Background(), set.ConsentSetID, consent.ConsentID); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
