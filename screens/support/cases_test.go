package support_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"cardterm/sandbox"
	"cardterm/screens/screentest"
	"cardterm/screens/support"
)

// An e-mail, a card number or a phone number typed where an id belongs
// is refused under the field with what to ask the customer for; nothing
// is sent and what was typed stays.
func TestSupportRefusesWhatIsNotAnID(t *testing.T) {
	cases := []struct{ typed, says string }{
		{"alice@demo.test", "that is an e-mail address"},
		{"4242 4242 4242 4242", "that looks like a card number: never ask for one"},
		{"+33 6 12 34 56 78", "that is a phone number"},
	}
	for _, c := range cases {
		t.Run(c.says, func(t *testing.T) {
			app := newConsole(t, support.Options{})
			app.Keys("u")
			app.Type(c.typed)
			app.Keys("enter")
			s := app.Screen()
			screentest.MustShow(t, s, c.says, "customer for the user id", c.typed)
			if n := len(app.Server.Requests()); n != 0 {
				t.Fatalf("%d requests sent for %q", n, c.typed)
			}
		})
	}
}

// A wallet address typed before any customer is looked up says that
// whitelists are the customer's; on a case it waits for the approval.
func TestSupportAddressSearchNeedsTheCustomer(t *testing.T) {
	app := newConsole(t, support.Options{})
	app.Keys("u")
	app.Type("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
	app.Keys("enter")
	app.MustShow(t, "that is a wallet address", "look the customer up first")
	if n := len(app.Server.Requests()); n != 0 {
		t.Fatalf("%d requests sent for an address", n)
	}
}

// The timeline lists the audit trail newest first and says plainly what
// the gateway cannot tell.
func TestSupportTimelineSaysWhatTheGatewayCannotTell(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test")})
	app.Keys("t")
	app.MustShow(t, "Timeline", "newest first", "consent audit", "What the gateway cannot tell",
		"Card state changes carry no actor or time", "only known when a delegation token is requested",
		"Verification reasons and transitions are not exposed", "Webhook deliveries are not in the gateway's interface",
		"Card transactions and wallet history are read in the customer's session")
	noSignIn(t, app)
}

// A ticket opens its case in the cases folder: the look-up, a note and
// the selected consent kept with the request and hash are in the file.
func TestSupportTicketOpensItsCaseFile(t *testing.T) {
	dir := t.TempDir()
	alice := sandbox.DemoUserID("alice@demo.test")
	app := newConsole(t, support.Options{User: alice, CasesDir: dir, Agent: "dana"})
	app.Keys("T")
	app.Type("TCK-5")
	app.Keys("enter")
	app.MustShow(t, "Case TCK-5 · 1 look-up")
	app.Keys("n")
	app.Type("first line")
	app.Keys("enter")
	app.Type("second line")
	app.Keys("ctrl+s")
	app.Keys("ctrl+k")
	app.MustShow(t, "1 note, 1 piece of evidence")
	data, err := os.ReadFile(filepath.Join(dir, "case-TCK-5.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Notes    []struct{ Agent, Text string }
		Evidence []struct {
			Title   string
			Request struct{ Method, Path, Via string }
			Text    string
			SHA256  string
		}
		Lookups []struct{ ID, Answer string }
	}
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Notes) != 1 || c.Notes[0].Text != "first line\nsecond line" || c.Notes[0].Agent != "dana" {
		t.Fatalf("notes %+v", c.Notes)
	}
	if len(c.Evidence) != 1 || !strings.Contains(c.Evidence[0].Title, "termsAndPrivacy") || c.Evidence[0].Request.Via != "client key" ||
		c.Evidence[0].Request.Path != "/v2/consent/user/"+alice+"?full=true" || len(c.Evidence[0].SHA256) != 64 || !strings.Contains(c.Evidence[0].Text, "granted") {
		t.Fatalf("evidence %+v", c.Evidence)
	}
	if len(c.Lookups) != 1 || c.Lookups[0].ID != alice || !strings.Contains(c.Lookups[0].Answer, "complete") {
		t.Fatalf("look-ups %+v", c.Lookups)
	}
}

// The case's views fit every size: no line wider than the terminal, the
// footer whole, in each of the console's new views.
func TestSupportCaseViewsFitEverySize(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 60}} {
		app := newConsole(t, support.Options{User: sandbox.DemoUserID("frank@demo.test"), CasesDir: t.TempDir(), Agent: "dana"},
			screentest.WithSize(size[0], size[1]))
		app.Keys("T")
		app.Type("TCK-9")
		app.Keys("enter", "n")
		app.Type("a note long enough to wrap at eighty columns, with more words than one line of the narrowest terminal can hold")
		app.Keys("ctrl+s", "ctrl+k")
		for _, view := range []struct {
			keys  []string
			shows string
		}{{nil, "Case TCK-9"}, {[]string{"t"}, "What the gateway cannot tell"}, {[]string{"esc", "B"}, "Run a runbook"}, {[]string{"esc", "N"}, "Evidence"}} {
			app.Keys(view.keys...)
			s := app.Screen()
			screentest.MustShow(t, s, view.shows)
			for i, line := range strings.Split(s, "\n") {
				if w := len([]rune(strings.TrimRight(line, " "))); w > size[0] {
					t.Fatalf("%dx%d %v: line %d is %d wide:\n%s", size[0], size[1], view.keys, i, w, s)
				}
			}
			if !strings.Contains(s, "? help") && !strings.Contains(s, "f1 help") {
				t.Fatalf("%dx%d %v: the footer is cut:\n%s", size[0], size[1], view.keys, s)
			}
		}
	}
}

// u on a customer's case opens the look-up (it did nothing and said
// nothing), and a look-up made before the ticket is logged under the
// ticket once T opens its case.
func TestSupportUOnACaseLooksUpTheNextAndTheTicketReachesTheLog(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "state", "support-actions.jsonl")
	alice, frank := sandbox.DemoUserID("alice@demo.test"), sandbox.DemoUserID("frank@demo.test")
	app := newConsole(t, support.Options{User: alice, CasesDir: t.TempDir(), ActionLog: logFile, Agent: "dana"})
	app.MustShow(t, "User "+alice)
	app.Keys("T")
	app.Type("TCK-U")
	app.Keys("enter")
	app.MustShow(t, "Case TCK-U · 1 look-up")
	app.Keys("u")
	app.MustShow(t, "User id")
	app.Type(frank)
	app.Keys("enter")
	app.MustShow(t, "User "+frank, "ticket TCK-U", "Case TCK-U · 2 look-ups")
	var ticketed []string
	for _, e := range outcomes(logEntries(t, logFile), "lookup") {
		if e["ticket"] == "TCK-U" {
			ticketed = append(ticketed, e["userId"].(string))
		}
	}
	if len(ticketed) != 2 || ticketed[0] != alice || ticketed[1] != frank {
		t.Fatalf("look-ups logged under TCK-U: %v", ticketed)
	}
}

// A ticket set without a cases folder writes no case file anywhere: not
// in the package directory, not in the current one (two such files were
// once committed here by accident).
func TestSupportTicketWithoutCasesFolderWritesNoFile(t *testing.T) {
	before, _ := filepath.Glob("case-*.json")
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test")})
	app.Keys("T")
	app.Type("TCK-8")
	app.Keys("enter")
	app.MustShow(t, "ticket TCK-8")
	app.Keys("ctrl+k")
	after, _ := filepath.Glob("case-*.json")
	if len(after) != len(before) {
		t.Fatalf("case files in the current directory: %v, were %v", after, before)
	}
}
