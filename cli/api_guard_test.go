package cli

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardterm/apiclient/sandbox"
)

// `cardterm api --read-only` sends nothing for the faucet request, a
// method override (header or parameter), a mutation, or a path not on
// the interface's reads: the sandbox's request log stays as it was (not
// even the sign-in is sent), and the exit code is 2.
func TestAPIReadOnlySendsNothingButReads(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	args := []string{"--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox", "--read-only"}
	for _, refused := range [][]string{
		{"/v1/delegation/token", "-f", "faucet=true", "-f", "address=0x52908400098527886E0F7030069857D2E4169EE7", "-f", "network=linea"},
		{"/v1/card/status", "-H", "X-HTTP-Method-Override: POST"},
		{"/v1/card/freeze", "-H", "X-Method-Override: POST"},
		{"/v1/card/status?_method=POST"},
		{"/v1/card/status", "-f", "_method=POST"},
		{"POST", "/v1/card/freeze"},
		{"POST", "/v1/card/set-pin/token"},
		{"POST", "/v1/webhooks/0b7e0000-0000-4000-8000-000000000001/rotate-key"},
		{"/v1/auth/oauth/authorize/initiate", "-f", "client_id=" + sandbox.DemoClientKey},
		{"/sandbox/logs"},
		{"/v1/user/../card/freeze"},
	} {
		before := len(sb.Server.Requests())
		out, errOut, code := cliRun(t, alice, append(append([]string{"api"}, refused...), args...)...)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "read-only") {
			t.Errorf("%v: exit %d, out %q, stderr %q; want 2", refused, code, out, errOut)
		}
		if sent := sb.Server.Requests()[before:]; len(sent) != 0 {
			t.Errorf("%v reached the gateway: %v", refused, sent)
		}
	}
	if out, errOut, code := cliRun(t, alice, append([]string{"api", "/v1/card/status", "--jq", ".status"}, args...)...); code != exitOK || out != "ACTIVE\n" {
		t.Errorf("a read under --read-only: exit %d %q %q", code, out, errOut)
	}
}

// An address instead of a path is refused before the sign-in: the
// password is never sent for a request that cannot go.
func TestAPIChecksThePathBeforeSigningIn(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	before := len(sb.Server.Requests())
	_, errOut, code := cliRun(t, alice, "api", "https://elsewhere.example/v1/user", "--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox")
	if code != exitUsage || !strings.Contains(errOut, "not an address") {
		t.Errorf("an address: exit %d %q; want 2", code, errOut)
	}
	if sent := sb.Server.Requests()[before:]; len(sent) != 0 {
		t.Errorf("an address was refused only after %v", sent)
	}
}

// SIGTERM while --jq works on an answer ends `cardterm api` with exit
// status 130, as every interrupt does.
func TestAPISigtermDuringJQExits130(t *testing.T) {
	sb := startSandboxInProcess(t, sandbox.Options{})
	cmd := exec.Command(binary, "api", "/v2/consent/user/"+sandbox.DemoUserID("alice@demo.test"), "--jq", "last(range(1e12))",
		"--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox")
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+t.TempDir(), "CARDTERM_PROFILE=", "CARDTERM_READ_ONLY=", noKeyring)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(e2eWait)
	for len(sb.Server.Requests()) == 0 {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("the request never came")
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond) // the answer read, --jq running
	_ = cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitInterrupted {
		t.Fatalf("SIGTERM during --jq: %v; want exit status 130", err)
	}
}
