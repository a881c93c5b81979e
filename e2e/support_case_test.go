package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
)

// The support console's case files, action log, refusals and recent
// look-ups, driven in tmux against a sandbox served by the test process.

// supportTerm starts `cardterm support args...` on sb with the client key
// only, its state in dir/state and its exports in dir.
func supportTerm(t *testing.T, sb *sandbox.Running, dir string, env []string, args ...string) *tmuxTerm {
	t.Helper()
	env = append([]string{"CARDTERM_SECRET_KEY=", "XDG_STATE_HOME=" + filepath.Join(dir, "state"), "XDG_DATA_HOME=" + filepath.Join(dir, "data"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_CACHE_HOME=" + filepath.Join(dir, "cache")}, env...)
	argv := append([]string{"support", "--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox"}, args...)
	tm := startTerm(t, env, argv...)
	tm.waitFor("Support console")
	return tm
}

// lookUpUser types a user id into the look-up form.
func (tm *tmuxTerm) lookUpUser(id string, shows ...string) {
	tm.t.Helper()
	tm.send("u")
	tm.waitFor("Look up a customer by user id")
	tm.typeText(id)
	tm.send("Enter")
	tm.waitFor(append([]string{"User " + id}, shows...)...)
}

// caseFiles waits for the export notice and returns the newest Markdown
// and JSON written for id (case-user-ID-TIME, or case-TICKET-user-ID-TIME
// when a ticket's case is open).
func caseFiles(t *testing.T, tm *tmuxTerm, dir, id string) (md, js string) {
	t.Helper()
	tm.waitFor("case written to")
	mds, _ := filepath.Glob(filepath.Join(dir, "case-*user-"+id+"-*.md"))
	jsons, _ := filepath.Glob(filepath.Join(dir, "case-*user-"+id+"-*.json"))
	if len(mds) == 0 || len(jsons) == 0 {
		t.Fatalf("no case file for %s: %v %v", id, mds, jsons)
	}
	m, _ := os.ReadFile(mds[len(mds)-1])
	j, _ := os.ReadFile(jsons[len(jsons)-1])
	return string(m), string(j)
}

// interfaceOnly fails on a request the gateway interface does not name.
func interfaceOnly(t *testing.T, sb *sandbox.Running) {
	t.Helper()
	allowed := []string{"GET /v2/consent/user/", "GET /v2/consent/onboarding/", "DELETE /v2/consent/consentSet/",
		"PATCH /v2/consent/onboarding/", "GET /v1/auth/oauth/authorize/initiate", "POST /v1/auth/oauth/token",
		"DELETE /v1/auth/oauth/revoke", "GET /v1/user", "GET /v1/card/", "GET /v1/wallet/", "GET /v1/delegation/",
		"GET /v1/order/", "GET /oauth/sign-in", "POST /oauth/sign-in"}
	for _, r := range sb.Server.Requests() {
		call := r.Method + " " + r.Path
		ok := call == "GET /v1/webhooks" // the app's question at start: is this the sandbox?
		for _, prefix := range allowed {
			ok = ok || strings.HasPrefix(call, prefix)
		}
		if !ok {
			t.Fatalf("a request outside the interface: %s", call)
		}
	}
}

// Alice, her timeline, back, dave (no consent set), export with IPs: the
// file holds nothing of alice's.
func TestSupportNextCaseExportHoldsNothingOfTheLast(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	t.Chdir(dir)
	alice, dave := sandbox.DemoUserID("alice@demo.test"), sandbox.DemoUserID("dave@demo.test")
	tm := supportTerm(t, sb, dir, nil)
	tm.lookUpUser(alice, "COMPLETE")
	tm.send("a")
	tm.waitFor("Audit trail", "records loaded")
	tm.send("Escape")
	tm.waitFor("COMPLETE")
	tm.send("Escape")
	tm.waitFor("Recent look-ups")
	tm.lookUpUser(dave, "NO CONSENT SET (404)")
	tm.send("E")
	md, js := caseFiles(t, tm, dir, dave)
	for _, leak := range []string{alice, "auditId", "termsAndPrivacy", "198.51.100", "onb-alice"} {
		if strings.Contains(md, leak) || strings.Contains(js, leak) {
			t.Fatalf("dave's case file holds %q of alice's:\n%s\n%s", leak, md, js)
		}
	}
	interfaceOnly(t, sb)
}

// A wrong secret key is refused on the console and asked for again; the
// right one revokes; the export that follows lists the revoke, holds the
// gateway's count, and the action log holds the revoke with the agent and
// the ticket, and no secret anywhere.
func TestSupportRevokeRefusalExportAndActionLog(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	t.Chdir(dir)
	alice := sandbox.DemoUserID("alice@demo.test")
	tm := supportTerm(t, sb, dir, nil, "--agent", "dana.support", alice)
	tm.waitFor("COMPLETE", "marketingNotifications")
	tm.send("T")
	tm.waitFor("Ticket for this case")
	tm.typeText("TCK-1234")
	tm.send("Enter")
	tm.waitFor("ticket TCK-1234")

	tm.send("j", "x")
	tm.waitFor("The secret key is needed")
	tm.typeText("sk_wrong_key")
	tm.send("Enter")
	tm.waitFor("Revoke marketingNotifications?", "DELETE /v2/consent/consentSet/")
	tm.send("y")
	tm.waitFor("secret key refused")
	tm.send("x")
	tm.waitFor("The secret key is needed", "refused by the gateway and forgotten")
	tm.typeText(sandbox.DemoSecretKey)
	tm.send("Enter")
	tm.waitFor("Revoke marketingNotifications?", "under ticket TCK-1234")
	tm.send("y")
	tm.waitFor("marketingNotifications revoked")

	time.Sleep(1100 * time.Millisecond) // a file name per second
	tm.send("e")
	md, js := caseFiles(t, tm, dir, alice)
	var e struct {
		AuditTotal   int               `json:"auditTotal"`
		AuditRecords []json.RawMessage `json:"auditRecords"`
		Actions      []struct {
			Agent, Ticket, Action, Outcome string
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(js), &e); err != nil {
		t.Fatal(err)
	}
	if len(e.AuditRecords) != e.AuditTotal || e.AuditTotal <= 50 {
		t.Fatalf("the export holds %d records of the gateway's %d", len(e.AuditRecords), e.AuditTotal)
	}
	if len(e.Actions) != 2 || !strings.Contains(e.Actions[0].Outcome, "secret key refused") ||
		e.Actions[1].Action != "revoke" || !strings.HasPrefix(e.Actions[1].Outcome, "ok") {
		t.Fatalf("the export's actions: %+v", e.Actions)
	}
	for _, want := range []string{"## Actions in this case", "TCK-1234", "revoke", "consent status now complete"} {
		if !strings.Contains(md, want) {
			t.Fatalf("the Markdown lacks %q:\n%s", want, md)
		}
	}

	logFile := filepath.Join(dir, "state", "cardterm", "support-actions.jsonl")
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	// The lines: the look-up, the same look-up under the ticket once T
	// opened its case, the refused revoke (asked for, then its outcome),
	// the revoke, the export; the revoke's outcome is the sixth.
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var revoked map[string]any
	if len(lines) != 7 || json.Unmarshal([]byte(lines[5]), &revoked) != nil {
		t.Fatalf("the action log:\n%s", data)
	}
	if revoked["action"] != "revoke" || revoked["ticket"] != "TCK-1234" || revoked["agent"] != "dana.support" || revoked["userId"] != alice ||
		!strings.HasPrefix(revoked["outcome"].(string), "ok") {
		t.Fatalf("the action log's revoke: %v", revoked)
	}
	// Whole as written; one line edited (the refused revoke made to look
	// like a success) is found and named.
	if out, err := binaryCommand(t, "support", "verify-log", logFile).CombinedOutput(); err != nil {
		t.Fatalf("verify-log of the log as written: %v\n%s", err, out)
	}
	lines[3] = strings.Replace(lines[3], `"outcome":"failed: secret key refused`, `"outcome":"ok: secret key refused`, 1)
	edited := filepath.Join(dir, "edited.jsonl")
	if err := os.WriteFile(edited, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := binaryCommand(t, "support", "verify-log", edited).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "line 4: the line was edited") {
		t.Fatalf("verify-log of an edited log: %v\n%s", err, out)
	}
	if info, _ := os.Stat(logFile); info.Mode().Perm() != 0o600 {
		t.Fatalf("action log mode %v", info.Mode().Perm())
	}
	noSecretUnder(t, dir, sandbox.DemoSecretKey, "sk_wrong_key")
	interfaceOnly(t, sb)
}

// noSecretUnder fails if any file under dir holds one of the secrets.
func noSecretUnder(t *testing.T, dir string, secrets ...string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(path)
		for _, secret := range secrets {
			if strings.Contains(string(data), secret) {
				t.Fatalf("%s holds a secret", path)
			}
		}
		return nil
	})
}

// `cardterm support USER_ID` keeps the look-ups made before it.
func TestSupportLookupArgumentKeepsRecentLookups(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	alice, frank := sandbox.DemoUserID("alice@demo.test"), sandbox.DemoUserID("frank@demo.test")
	first := supportTerm(t, sb, dir, nil)
	first.lookUpUser(alice, "COMPLETE")
	first.send("Escape")
	first.waitFor("Recent look-ups", alice)
	first.send("q")

	second := supportTerm(t, sb, dir, nil, frank)
	second.waitFor("INCOMPLETE")
	second.send("Escape")
	second.waitFor("Recent look-ups", frank, alice)
}

// On the embedded sandbox the console offers the demo users' ids before
// the first look-up, so a demo starts with enter.
func TestSupportOffersTheSandboxDemoUsers(t *testing.T) {
	dir := t.TempDir()
	tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=", "XDG_STATE_HOME=" + filepath.Join(dir, "state")}, "support")
	alice := sandbox.DemoUserID("alice@demo.test")
	tm.waitFor("the sandbox's demo users", alice, "Demo user", "alice@demo.test", "sam@demo.test")
	tm.send("Enter")
	tm.waitFor("User "+alice, "COMPLETE")
}

// An action log that cannot be written (here a folder where the file
// should be) refuses a revoke: the console says why, and the sandbox's
// request log holds no DELETE.
func TestSupportRevokeRefusedWhenTheActionLogCannotBeWritten(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "state", "cardterm", "support-actions.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}
	alice := sandbox.DemoUserID("alice@demo.test")
	tm := supportTerm(t, sb, dir, []string{"CARDTERM_SECRET_KEY=" + sandbox.DemoSecretKey}, alice)
	tm.waitFor("COMPLETE", "marketingNotifications")
	tm.send("j", "x")
	tm.waitFor("Revoke marketingNotifications?")
	tm.send("y")
	tm.waitFor("revoke refused, nothing was sent: the action log", "directory") // "is a directory", wherever the path wraps it
	for _, r := range sb.Server.Requests() {
		if r.Method == "DELETE" {
			t.Fatalf("sent %s %s with no line in the action log", r.Method, r.Path)
		}
	}
}

// In production (on the sandbox, to rehearse) a revoke asks for the
// ticket first: --require-ticket is on by default there.
func TestSupportProductionRequiresATicket(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	alice := sandbox.DemoUserID("alice@demo.test")
	tm := supportTerm(t, sb, dir, []string{"CARDTERM_SECRET_KEY=" + sandbox.DemoSecretKey}, "--environment", "production", alice)
	tm.waitFor("COMPLETE", "PRODUCTION")
	tm.send("j", "x")
	tm.waitFor("A ticket is required first")
	tm.send("Escape")
	off := supportTerm(t, sb, t.TempDir(), []string{"CARDTERM_SECRET_KEY=" + sandbox.DemoSecretKey, "CARDTERM_REQUIRE_TICKET=false"},
		"--environment", "production", alice)
	off.waitFor("COMPLETE", "PRODUCTION")
	off.send("j", "x")
	off.waitFor("PRODUCTION: type the last 4 characters")
}
