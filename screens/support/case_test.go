package support_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardterm/apiclient"
	"cardterm/domain/actionlog"
	"cardterm/sandbox"
	"cardterm/screens/screenkit"
	"cardterm/screens/screentest"
	"cardterm/screens/support"
	"cardterm/ui"
)

// exports lists the case files written in dir for id, oldest first.
func exports(t *testing.T, dir, kind, id, ext string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "case-"+kind+"-"+id+"-*."+ext))
	return files
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Alice's case, her timeline opened, then dave's (no consent set): dave's
// case file holds nothing of alice's.
func TestSupportExportOfTheNextCaseHoldsNothingOfTheLast(t *testing.T) {
	dir := t.TempDir()
	alice, dave := sandbox.DemoUserID("alice@demo.test"), sandbox.DemoUserID("dave@demo.test")
	app := newConsole(t, support.Options{User: alice, ExportDir: dir})
	app.Keys("a", "esc", "esc", "u")
	app.Type(dave)
	app.Keys("enter")
	app.MustShow(t, "User "+dave, "NO CONSENT SET (404)")
	app.Keys("E")
	app.MustShow(t, "case written to")
	md, js := exports(t, dir, "user", dave, "md"), exports(t, dir, "user", dave, "json")
	if len(md) != 1 || len(js) != 1 {
		t.Fatalf("exported %v %v", md, js)
	}
	for _, file := range []string{md[0], js[0]} {
		text := readFile(t, file)
		for _, leak := range []string{alice, "auditId", "termsAndPrivacy", "198.51.100", "onb-alice"} {
			if strings.Contains(text, leak) {
				t.Fatalf("%s holds %q of the last case:\n%s", filepath.Base(file), leak, text)
			}
		}
	}
	screentest.MustShow(t, readFile(t, md[0]), "No consent set (404)", "## Actions in this case", "No action was taken")
}

// A revoke, then an export: the file is read again from the gateway, so it
// holds the revoke's audit record and the gateway's count, and lists the
// revoke among the actions with the agent and the ticket.
func TestSupportExportAfterARevokeListsItWithTheGatewaysCount(t *testing.T) {
	dir := t.TempDir()
	logFile := filepath.Join(t.TempDir(), "state", "support-actions.jsonl")
	alice := sandbox.DemoUserID("alice@demo.test")
	app := newConsole(t, support.Options{User: alice, ExportDir: dir, ActionLog: logFile, Agent: "agent-ada"},
		screentest.WithConfig(func(c *apiclient.Config) { c.SecretKey = sandbox.DemoSecretKey }))
	app.Keys("T")
	app.Type("TCK-42")
	app.Keys("enter")
	app.MustShow(t, "ticket TCK-42")
	app.Keys("a")
	before := auditTotal(t, app)
	app.Keys("esc", "j", "x")
	spec, ok := app.UI().Dialog()
	if !ok || !strings.Contains(strings.Join(spec.Lines, " "), "Logged as agent agent-ada under ticket TCK-42") {
		t.Fatalf("the confirmation does not say who and which ticket: %+v", spec)
	}
	app.Keys("y")
	app.MustShow(t, "revoked")
	app.Clock.Advance(time.Second)
	app.Keys("e")
	app.MustShow(t, "case written to")
	js := exports(t, dir, "user", alice, "json")
	if len(js) != 1 {
		t.Fatalf("exported %v", js)
	}
	var e struct {
		AuditTotal   int               `json:"auditTotal"`
		AuditRecords []json.RawMessage `json:"auditRecords"`
		Actions      []struct {
			Agent, Ticket, Action, Request, Outcome string
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(readFile(t, js[0])), &e); err != nil {
		t.Fatal(err)
	}
	if e.AuditTotal != before+1 || len(e.AuditRecords) != e.AuditTotal {
		t.Fatalf("the export holds %d of %d audit records; the gateway had %d before the revoke", len(e.AuditRecords), e.AuditTotal, before)
	}
	if len(e.Actions) != 1 || e.Actions[0].Action != "revoke" || e.Actions[0].Agent != "agent-ada" || e.Actions[0].Ticket != "TCK-42" ||
		!strings.HasPrefix(e.Actions[0].Outcome, "ok") || !strings.HasPrefix(e.Actions[0].Request, "DELETE /v2/consent/consentSet/") {
		t.Fatalf("actions in the export: %+v", e.Actions)
	}
	md := readFile(t, exports(t, dir, "user", alice, "md")[0])
	screentest.MustShow(t, md, "## Actions in this case", "agent-ada", "TCK-42", "revoke", "## Audit trail (")
	if strings.Contains(md, "T00:") || strings.Contains(md, "Z |") {
		t.Fatalf("the Markdown has machine dates:\n%s", md)
	}
	all := logEntries(t, logFile)
	entries := outcomes(all, "revoke")
	if len(entries) != 1 || entries[0]["agent"] != "agent-ada" || entries[0]["ticket"] != "TCK-42" || entries[0]["userId"] != alice ||
		entries[0]["clientKey"] != sandbox.DemoClientKey || entries[0]["action"] != "revoke" {
		t.Fatalf("action log: %v", all)
	}
	// The look-up, the revoke as asked for and then its outcome, the
	// export: in that order, chained.
	var actions []string
	for _, e := range all {
		actions = append(actions, e["action"].(string)+" "+strings.SplitN(e["outcome"].(string), ":", 2)[0])
	}
	if got := strings.Join(actions, ", "); got != "lookup ok, revoke requested, revoke ok; consent status now complete, export ok" {
		t.Fatalf("the log's lines: %s", got)
	}
	if rep, err := actionlog.VerifyFile(logFile); err != nil || !rep.Whole() || rep.Lines != 4 {
		t.Fatalf("the log's chain: %+v %v", rep, err)
	}
	if info, err := os.Stat(logFile); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("action log mode: %v %v", info, err)
	}
	for _, file := range append(js, logFile) {
		if strings.Contains(readFile(t, file), sandbox.DemoSecretKey) {
			t.Fatalf("%s holds the secret key", file)
		}
	}
}

// auditTotal opens the timeline's count and reads the gateway's total.
func auditTotal(t *testing.T, app *screentest.App) int {
	t.Helper()
	for _, line := range strings.Split(app.Screen(), "\n") {
		if i := strings.Index(line, " records loaded"); i >= 0 {
			fields := strings.Fields(line[:i])
			var n int
			if err := json.Unmarshal([]byte(strings.ReplaceAll(fields[len(fields)-1], ",", "")), &n); err == nil {
				return n
			}
		}
	}
	t.Fatalf("no record count:\n%s", app.Screen())
	return 0
}

// outcomes are the lines of action that say how it ended (not the lines
// written before the request).
func outcomes(entries []map[string]any, action string) []map[string]any {
	var out []map[string]any
	for _, e := range entries {
		if e["action"] == action && e["outcome"] != actionlog.Requested {
			out = append(out, e)
		}
	}
	return out
}

func logEntries(t *testing.T, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("a line of the action log is not JSON: %q", sc.Text())
		}
		out = append(out, m)
	}
	return out
}

// A wrong secret key: the refusal is said on the console (not by sending
// the agent to the sign-in screen), the key is forgotten, and the next
// revoke asks for it again.
func TestSupportWrongSecretKeyIsRefusedAndAskedAgain(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "actions.jsonl")
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test"), ActionLog: logFile})
	app.Keys("j", "x")
	app.Type("sk_wrong_key")
	app.Keys("enter", "y")
	s := app.Screen()
	screentest.MustShow(t, s, "Support console", "secret key refused", "it was forgotten")
	if !app.UI().Supporting() {
		t.Fatalf("the refusal left the console:\n%s", s)
	}
	app.Keys("x")
	app.MustShow(t, "The secret key is needed", "was refused by the gateway and forgotten")
	entries := outcomes(logEntries(t, logFile), "revoke")
	if len(entries) != 1 || !strings.Contains(entries[0]["outcome"].(string), "secret key refused") {
		t.Fatalf("action log: %v", entries)
	}
	if strings.Contains(readFile(t, logFile), "sk_wrong_key") {
		t.Fatal("the action log holds the typed key")
	}
}

// `cardterm support ID` opens a look-up before the saved list is read:
// the earlier look-ups stay, merged behind it.
func TestSupportLookupOnStartKeepsEarlierLookups(t *testing.T) {
	state := filepath.Join(t.TempDir(), "lookups.json")
	alice, frank := sandbox.DemoUserID("alice@demo.test"), sandbox.DemoUserID("frank@demo.test")
	first := newConsole(t, support.Options{User: alice, StateFile: state})
	first.Keys("T")
	first.Type("TCK-7")
	first.Keys("enter")
	second := newConsole(t, support.Options{User: frank, StateFile: state})
	second.Keys("esc")
	second.MustShow(t, frank, alice, "TCK-7")
	saved := readFile(t, state)
	if !strings.Contains(saved, alice) || !strings.Contains(saved, frank) || !strings.Contains(saved, "TCK-7") {
		t.Fatalf("state file lost a look-up: %s", saved)
	}
}

// A user id not found in one region is looked up in the other at once:
// the case shows the region that has the customer and says both answers;
// the look-up is kept with its region.
func TestSupportUserNotFoundIsLookedUpInTheOtherRegionAtOnce(t *testing.T) {
	sam := sandbox.DemoUserID("sam@demo.test")
	app := newConsole(t, support.Options{User: sam})
	app.MustShow(t, "region US", "COMPLETE", "eSignAct", "Looked up in both regions.",
		"EU: no consent set (404)", "US: found, consent status complete (shown)")
	app.Keys("esc")
	app.MustShow(t, "US", sam)
}

// The timeline is sorted by time, newest first, and v reverses it.
func TestSupportTimelineSortsByTimeAndReverses(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test")})
	app.Keys("a")
	app.MustShow(t, "newest first", "v reverse")
	newest := firstDate(t, app.Screen())
	app.Keys("v")
	app.MustShow(t, "oldest first")
	oldest := firstDate(t, app.Screen())
	if !(oldest < newest) {
		t.Fatalf("first row %q oldest first, %q newest first", oldest, newest)
	}
}

// firstDate is the first timeline row's time (YYYY-MM-DD HH:MM form).
func firstDate(t *testing.T, screen string) string {
	t.Helper()
	lines := strings.Split(screen, "\n")
	for i, line := range lines {
		if strings.Contains(line, "Time") && strings.Contains(line, "Action") && i+1 < len(lines) {
			return strings.Join(strings.Fields(lines[i+1])[:2], " ")
		}
	}
	t.Fatalf("no timeline:\n%s", screen)
	return ""
}

// i shows the gateway's raw consent answer.
func TestSupportInspectsTheRawConsentAnswer(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test")})
	app.Keys("i")
	app.MustShow(t, "Consent answer for user", `"consentStatus"`, `"consentSets"`)
}

// On the sandbox, the demo users are offered before the first look-up,
// under a column that says what they are: no ticket, a demo account.
func TestSupportOffersTheDemoUsers(t *testing.T) {
	alice := sandbox.DemoUserID("alice@demo.test")
	app := newConsole(t, support.Options{DemoUsers: []support.DemoUser{{Username: "alice@demo.test", ID: alice}}})
	app.MustShow(t, "the sandbox's demo users", alice, "Demo user", "alice@demo.test",
		"The client key reads consent status")
	app.MustNotShow(t, "Ticket", "demo alice@demo.test")
	app.Keys("enter")
	app.MustShow(t, "User "+alice, "COMPLETE")
}

// E puts IP addresses and user agents in both files, e in neither.
func TestSupportFullExportHasIPsAndUserAgentsInBothFiles(t *testing.T) {
	dir := t.TempDir()
	alice := sandbox.DemoUserID("alice@demo.test")
	app := newConsole(t, support.Options{User: alice, ExportDir: dir})
	app.Keys("E")
	app.MustShow(t, "case written to")
	md, js := readFile(t, exports(t, dir, "user", alice, "md")[0]), readFile(t, exports(t, dir, "user", alice, "json")[0])
	for name, text := range map[string]string{"Markdown": md, "JSON": js} {
		if !strings.Contains(text, "198.51.100.23") || !strings.Contains(text, "AcmeWallet") {
			t.Fatalf("the %s of a full export lacks the IP addresses or user agents:\n%s", name, text)
		}
	}
	screentest.MustShow(t, md, "| From | User agent |")
}

// A failure said on the case takes lines above the table: the case is
// laid out again, so the table's footer and the selected ids stay in
// sight at 80x24.
func TestSupportProblemLinesKeepTheCaseInSight(t *testing.T) {
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test")}, screentest.WithSize(80, 24))
	app.Keys("j", "x")
	app.Type("sk_wrong_key")
	app.Keys("enter", "y")
	app.MustShow(t, "secret key refused", "row 2 of 4", "consent ")
}

// An action log that cannot be written refuses the revoke: nothing is
// sent, and the console says why; a log that is a symbolic link is
// refused the same way, and its target is left alone.
func TestSupportRevokeRefusedWhenTheLogCannotBeWritten(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere.jsonl")
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	blocked := filepath.Join(dir, "not-a-dir")
	if err := os.WriteFile(blocked, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for name, logFile := range map[string]string{"unwritable": filepath.Join(blocked, "actions.jsonl"), "symlink": link} {
		t.Run(name, func(t *testing.T) {
			app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test"), ActionLog: logFile},
				screentest.WithConfig(func(c *apiclient.Config) { c.SecretKey = sandbox.DemoSecretKey }))
			app.Keys("j", "x", "y")
			s := app.Screen()
			screentest.MustShow(t, s, "revoke refused, nothing was sent: the action log")
			for _, r := range app.Server.Requests() {
				if r.Method != "GET" {
					t.Fatalf("sent %s %s with no line in the log", r.Method, r.Path)
				}
			}
			if _, err := os.Stat(target); err == nil {
				t.Fatal("the symlink's target was written")
			}
		})
	}
}

// --require-ticket: a revoke (and an approved session) asks for the
// ticket first; leaving the form sends nothing, a ticket goes on to the
// confirmation, logged under it.
func TestSupportRequiredTicketIsAskedBeforeAChange(t *testing.T) {
	logFile := filepath.Join(t.TempDir(), "actions.jsonl")
	customers := func(screenkit.Deps) []ui.Screen { return nil }
	app := newConsole(t, support.Options{User: sandbox.DemoUserID("alice@demo.test"), ActionLog: logFile, RequireTicket: true,
		CustomerScreens: customers},
		screentest.WithConfig(func(c *apiclient.Config) { c.SecretKey = sandbox.DemoSecretKey }))
	app.Keys("j", "x")
	app.MustShow(t, "A ticket is required first", "A revoke or a link is logged under the case's ticket")
	app.Keys("enter")
	app.MustShow(t, "the ticket is required")
	app.Keys("esc")
	if _, ok := app.UI().Dialog(); ok {
		t.Fatal("leaving the ticket form went on to the confirmation")
	}
	app.Keys("ctrl+o")
	app.MustShow(t, "A customer-approved session is logged under the case's ticket")
	app.Keys("esc", "x")
	app.Type("TCK-77")
	app.Keys("enter")
	spec, ok := app.UI().Dialog()
	if !ok || !strings.Contains(strings.Join(spec.Lines, " "), "under ticket TCK-77") {
		t.Fatalf("the confirmation after the ticket: %+v", spec)
	}
	app.Keys("y")
	app.MustShow(t, "revoked")
	if e := outcomes(logEntries(t, logFile), "revoke"); len(e) != 1 || e[0]["ticket"] != "TCK-77" {
		t.Fatalf("the revoke's line: %v", e)
	}
}
