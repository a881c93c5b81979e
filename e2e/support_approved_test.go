package e2e

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"cardterm/sandbox"
)

// The customer-approved session, end to end: the customer's browser is
// the stand-in browser (browserEnvAs), signing in on the sandbox's hosted
// sign-in page.

// customerBrowserEnv is the environment of a cardterm whose browser signs
// in as username, on this machine (the loopback redirect).
func customerBrowserEnv(t *testing.T, username string) []string {
	t.Helper()
	env, _ := browserEnvAs(t, username, "loopback")
	return env
}

// sent counts the requests the sandbox received for method and path.
func sent(sb *sandbox.Running, method, path string) int {
	n := 0
	for _, r := range sb.Server.Requests() {
		if r.Method == method && r.Path == path {
			n++
		}
	}
	return n
}

// approve opens alice's case and starts a customer-approved session,
// typing the secret key the code exchange needs.
func approve(t *testing.T, sb *sandbox.Running, dir, customer string) *tmuxTerm {
	t.Helper()
	return approveWithKey(t, sb, dir, customer, sandbox.DemoSecretKey)
}

// approveWithKey is approve with the secret key the agent types.
func approveWithKey(t *testing.T, sb *sandbox.Running, dir, customer, secret string) *tmuxTerm {
	t.Helper()
	alice := sandbox.DemoUserID("alice@demo.test")
	tm := supportTerm(t, sb, dir, customerBrowserEnv(t, customer), alice)
	tm.waitFor("COMPLETE")
	tm.send("C-o")
	tm.waitFor("The secret key is needed", "Exchanging the customer's sign-in code")
	tm.typeText(secret)
	tm.send("Enter")
	return tm
}

func TestSupportCustomerApprovedSession(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	tm := approve(t, sb, dir, "alice@demo.test")
	// The browser signs alice in and comes back to the loopback: the
	// customer's screens open under the banner, read-only.
	tm.waitFor("READ-ONLY · CUSTOMER-APPROVED SESSION: Alice Martin (alice@demo.test)", "Account", "VERIFIED")
	tm.open("Card")
	tm.waitFor("4242", "ACTIVE")
	s := tm.screen()
	if strings.Contains(s, "f freeze/unfreeze") {
		t.Fatalf("the read-only card screen offers a change:\n%s", s)
	}
	tm.send("f")
	tm.waitFor("read-only mode")
	time.Sleep(300 * time.Millisecond)
	if n := sent(sb, "POST", "/v1/card/freeze"); n != 0 {
		t.Fatalf("the freeze key sent %d freeze requests", n)
	}
	if n := sent(sb, "DELETE", "/v1/auth/oauth/revoke"); n != 0 {
		t.Fatalf("revoked %d times before the end", n)
	}

	// The status bar names the session's region; q asks, then ends the
	// session back in the console, and the app runs on.
	status := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if bar := status[len(status)-2]; !strings.Contains(bar, " EU ") {
		t.Fatalf("no region on the status bar: %q\n%s", bar, s)
	}
	tm.confirm("q", "End the customer-approved session?", "DELETE /v1/auth/oauth/revoke")
	tm.waitFor("customer-approved session ended", "the customer's approval was revoked", "COMPLETE")
	if n := sent(sb, "DELETE", "/v1/auth/oauth/revoke"); n != 1 {
		t.Fatalf("ending the session sent %d revokes", n)
	}
	if exec.Command("tmux", "-S", tm.socket, "has-session").Run() != nil {
		t.Fatal("q ended the app, not the session")
	}
	logFile := filepath.Join(dir, "state", "cardterm", "support-actions.jsonl")
	data, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	log := string(data)
	for _, want := range []string{`"action":"approved-session-requested"`, `"action":"approved-session-start"`,
		`"action":"approved-session-view","screen":"Account"`, `"action":"approved-session-view","screen":"Card"`,
		`"action":"approved-session-end"`, "the customer's approval was revoked"} {
		if !strings.Contains(log, want) {
			t.Fatalf("the action log lacks %s:\n%s", want, log)
		}
	}
	// Ids only: no customer's name or e-mail.
	for _, personal := range []string{"Alice", "Martin", "alice@demo.test", "@demo.test"} {
		if strings.Contains(log, personal) {
			t.Fatalf("the action log holds %q:\n%s", personal, log)
		}
	}
	if out, err := binaryCommand(t, "support", "verify-log", logFile).CombinedOutput(); err != nil || !strings.Contains(string(out), "whole") {
		t.Fatalf("verify-log: %v\n%s", err, out)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "state", "cardterm", "approved-sessions", "*")); len(files) != 0 {
		t.Fatalf("the ended session's record stays: %v", files)
	}
	noSecretUnder(t, dir, sandbox.DemoSecretKey, "access_token", "refresh_token")
	interfaceOnly(t, sb)
}

// The app killed (SIGKILL) in an approved session: the session's record
// stays in the state folder, and the next start revokes it and says so;
// the sandbox then refuses its refresh token.
func TestSupportApprovedSessionLeftOpenByAKillIsRevokedAtTheNextStart(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	tm := approve(t, sb, dir, "alice@demo.test")
	tm.waitFor("CUSTOMER-APPROVED SESSION: Alice Martin", "VERIFIED")
	records, _ := filepath.Glob(filepath.Join(dir, "state", "cardterm", "approved-sessions", "session-*.json"))
	if len(records) != 1 {
		t.Fatalf("the open session's record: %v", records)
	}
	var grant struct {
		RefreshToken string `json:"refreshToken"`
		UserID       string `json:"userId"`
	}
	data, _ := os.ReadFile(records[0])
	if err := json.Unmarshal(data, &grant); err != nil || grant.RefreshToken == "" || grant.UserID != sandbox.DemoUserID("alice@demo.test") {
		t.Fatalf("the record: %v\n%s", err, data)
	}
	pid, err := exec.Command("tmux", "-S", tm.socket, "display-message", "-p", "#{pane_pid}").Output()
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("kill", "-KILL", strings.TrimSpace(string(pid))).CombinedOutput(); err != nil {
		t.Fatalf("kill -KILL: %v: %s", err, out)
	}
	for deadline := time.Now().Add(e2eWait); exec.Command("tmux", "-S", tm.socket, "has-session").Run() == nil; {
		if time.Now().After(deadline) {
			t.Fatalf("the killed app is still there:\n%s", tm.screen())
		}
		time.Sleep(40 * time.Millisecond)
	}
	if n := sent(sb, "DELETE", "/v1/auth/oauth/revoke"); n != 0 {
		t.Fatalf("a killed app sent %d revokes", n)
	}
	next := supportTerm(t, sb, dir, nil)
	next.waitFor("revoked 1 customer-approved session")
	if n := sent(sb, "DELETE", "/v1/auth/oauth/revoke"); n != 1 {
		t.Fatalf("the next start sent %d revokes", n)
	}
	// Without the revoke this refresh would be granted (184 days).
	if code := refreshStatus(t, sb, grant.RefreshToken); code != http.StatusBadRequest {
		t.Fatalf("the sandbox answered %d to the revoked session's refresh token", code)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "state", "cardterm", "approved-sessions", "*")); len(left) != 0 {
		t.Fatalf("the revoked session's record stays: %v", left)
	}
	log, _ := os.ReadFile(filepath.Join(dir, "state", "cardterm", "support-actions.jsonl"))
	if !strings.Contains(string(log), `"action":"approved-session-recovered"`) {
		t.Fatalf("the action log does not say the session was revoked at the start:\n%s", log)
	}
}

// refreshStatus asks the sandbox for new tokens with a refresh token, as
// the app would, and returns the status.
func refreshStatus(t *testing.T, sb *sandbox.Running, refreshToken string) int {
	t.Helper()
	body := `{"grant_type":"refresh_token","refresh_token":"` + refreshToken + `"}`
	req, _ := http.NewRequest(http.MethodPost, sb.URL+"/v1/auth/oauth/token", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("x-client-key", sandbox.DemoClientKey)
	req.Header.Set("x-secret-key", sandbox.DemoSecretKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusBadRequest && !strings.Contains(string(answer), "invalid or revoked") {
		t.Fatalf("the refresh was refused for another reason: %s", answer)
	}
	return resp.StatusCode
}

// Another customer than the case's signs in: refused, revoked at once,
// and the console stays.
func TestSupportApprovedSessionOfAnotherUserIsRefused(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	tm := approve(t, sb, dir, "frank@demo.test")
	s := tm.waitFor("approved session refused and revoked", "not this case's user")
	if strings.Contains(s, "CUSTOMER-APPROVED SESSION:") {
		t.Fatalf("frank's session was shown:\n%s", s)
	}
	if n := sent(sb, "DELETE", "/v1/auth/oauth/revoke"); n != 1 {
		t.Fatalf("the refused session was revoked %d times", n)
	}
	for _, r := range sb.Server.Requests() {
		if strings.HasPrefix(r.Path, "/v1/card") || strings.HasPrefix(r.Path, "/v1/wallet") {
			t.Fatalf("the refused session read %s", r.Path)
		}
	}
	tm.waitFor("Support console", "COMPLETE")
	interfaceOnly(t, sb)
}

// A wrong secret key: the customer signs in, the code exchange is refused,
// and the console says the key was refused and asks for it again.
func TestSupportApprovedSessionWithAWrongSecretKey(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	tm := approveWithKey(t, sb, dir, "alice@demo.test", "sk_wrong_key")
	tm.waitFor("secret key refused", "COMPLETE")
	if n := sent(sb, "GET", "/v1/user"); n != 0 {
		t.Fatalf("a refused exchange still read the customer (%d)", n)
	}
	tm.send("C-o")
	tm.waitFor("The secret key is needed", "refused by the gateway and forgotten")
	noSecretUnder(t, dir, "sk_wrong_key")
}

// A hang-up (the terminal closed) ends the app without the console being
// told: the session is revoked all the same, before the app exits.
func TestSupportApprovedSessionRevokedOnHangup(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	tm := approve(t, sb, dir, "alice@demo.test")
	tm.waitFor("CUSTOMER-APPROVED SESSION: Alice Martin")
	pid, err := exec.Command("tmux", "-S", tm.socket, "display-message", "-p", "#{pane_pid}").Output()
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("kill", "-HUP", strings.TrimSpace(string(pid))).CombinedOutput(); err != nil {
		t.Fatalf("kill -HUP: %v: %s", err, out)
	}
	deadline := time.Now().Add(e2eWait)
	for sent(sb, "DELETE", "/v1/auth/oauth/revoke") == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("the hang-up did not revoke the session:\n%s", tm.screen())
		}
		time.Sleep(40 * time.Millisecond)
	}
}

// The customer on another device: the agent types the code their page
// shows, and the session opens as with the loopback.
func TestSupportApprovedSessionWithATypedCode(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	dir := t.TempDir()
	env, out := browserEnvAs(t, "alice@demo.test", "phone")
	alice := sandbox.DemoUserID("alice@demo.test")
	tm := supportTerm(t, sb, dir, env, alice)
	tm.waitFor("COMPLETE")
	tm.send("C-o")
	tm.waitFor("The secret key is needed")
	tm.typeText(sandbox.DemoSecretKey)
	tm.send("Enter")
	tm.waitFor("The customer signs in", "Code the customer's page shows")
	code := waitFile(t, out, "code")
	tm.typeText(code)
	tm.send("Enter")
	tm.waitFor("CUSTOMER-APPROVED SESSION: Alice Martin", "VERIFIED")
	tm.confirm("S", "End the customer-approved session?", "DELETE /v1/auth/oauth/revoke")
	tm.waitFor("customer-approved session ended", "the customer's approval was revoked", "Consent")
	if n := sent(sb, "DELETE", "/v1/auth/oauth/revoke"); n != 1 {
		t.Fatalf("ending the session sent %d revokes", n)
	}
}
