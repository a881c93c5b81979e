package e2e

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"cardterm/sandbox"
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
		{"/v1/card/status", "-H", "X_HTTP_Method_Override: POST"},
		{"/v1/card/status", "-H", "X-Forwarded-Method: POST"},
		{"/v1/card/status", "-H", "X-Original-URL: /v1/card/freeze"},
		{"/v1/card/status", "-H", "X-Rewrite-URL: /v1/card/freeze"},
		{"/v1/card/status?.method=POST"},
		{"/v1/card/status?+_method=POST"},
		{"/v1/card/status?_method[]=POST"},
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
	cmd := binaryCommand(t, "api", "/v2/consent/user/"+sandbox.DemoUserID("alice@demo.test"), "--jq", "last(range(1e12))",
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

// cliOperation is one operation of the gateway interface as typed on
// `cardterm api`'s command line, and whether it changes nothing.
type cliOperation struct {
	args []string
	read bool
}

// Every operation of the interface through the binary, against the
// sandbox's request log: without --read-only each one reaches the
// gateway; with it, the reads do and every other one sends nothing at
// all (not even the sign-in) and exits 2.
func TestAPIEveryOperationReadOnlyOnAndOff(t *testing.T) {
	id := "0b7e0000-0000-4000-8000-000000000001"
	user := sandbox.DemoUserID("alice@demo.test")
	operations := []cliOperation{
		{[]string{"POST", "/v1/auth/logout"}, false},
		{[]string{"POST", "/v1/auth/login", "-f", "username=bob@demo.test", "-f", "password=demo-pass"}, false},
		{[]string{"POST", "/v1/auth/oauth/token", "-f", "grant_type=refresh_token", "-f", "refresh_token=x"}, false},
		{[]string{"/v1/auth/oauth/authorize/initiate", "-f", "client_id=" + sandbox.DemoClientKey, "-f", "code_challenge=abc"}, false},
		{[]string{"DELETE", "/v1/auth/oauth/revoke"}, false},
		{[]string{"/v1/user"}, true},
		{[]string{"/v1/card/status"}, true},
		{[]string{"POST", "/v1/card/set-pin/token"}, false},
		{[]string{"POST", "/v1/card/pin/token"}, false},
		{[]string{"POST", "/v1/card/details/token"}, false},
		{[]string{"POST", "/v1/card/freeze"}, false},
		{[]string{"POST", "/v1/card/unfreeze"}, false},
		{[]string{"POST", "/v1/card/order", "-f", "type=VIRTUAL"}, false},
		{[]string{"/v1/card/transactions"}, true},
		{[]string{"/v1/wallet/internal"}, true},
		{[]string{"/v1/wallet/internal/card_linked"}, true},
		{[]string{"POST", "/v1/wallet/internal/card_linked", "-f", "addressId=x"}, false},
		{[]string{"DELETE", "/v1/wallet/internal/card_linked", "-f", "addressId=x"}, false},
		{[]string{"/v1/wallet/external"}, true},
		{[]string{"/v1/wallet/credit"}, true},
		{[]string{"/v1/wallet/credit/withdraw-estimation"}, true},
		{[]string{"POST", "/v1/wallet/credit/withdraw", "-f", "amount=1"}, false},
		{[]string{"/v1/wallet/history"}, true},
		{[]string{"/v1/wallet/whitelist", "-f", "currency=usdc"}, true},
		{[]string{"POST", "/v1/wallet/whitelist", "-F", "wallets=null"}, false},
		{[]string{"DELETE", "/v1/wallet/whitelist", "-F", "walletIds=null"}, false},
		{[]string{"/v1/delegation/token", "-f", "faucet=true", "-f", "address=0x52908400098527886E0F7030069857D2E4169EE7", "-f", "network=linea"}, false},
		{[]string{"/v1/delegation/chain/config"}, true},
		{[]string{"POST", "/v1/delegation/evm/post-approval"}, false},
		{[]string{"POST", "/v1/delegation/solana/post-approval"}, false},
		{[]string{"POST", "/v1/order", "-f", "productId=x", "-f", "paymentMethod=CRYPTO_EXTERNAL_DAIMO"}, false},
		{[]string{"/v1/order/products/available"}, true},
		{[]string{"/v1/order/ord-1"}, true},
		{[]string{"POST", "/v2/consent/onboarding"}, false},
		{[]string{"PATCH", "/v2/consent/onboarding/" + id, "-f", "userId=u"}, false},
		{[]string{"/v2/consent/onboarding/onb-1"}, true},
		{[]string{"/v2/consent/user/" + user}, true},
		{[]string{"/v2/consent/user/" + user + "/audit"}, true},
		{[]string{"/v2/consent/consentSet/" + id}, true},
		{[]string{"DELETE", "/v2/consent/consentSet/" + id + "/consent/" + id}, false},
		{[]string{"/v1/webhooks"}, true},
		{[]string{"POST", "/v1/webhooks", "-f", "name=x"}, false},
		{[]string{"/v1/webhooks/" + id}, true},
		{[]string{"PUT", "/v1/webhooks/" + id, "-F", "is_active=false"}, false},
		{[]string{"DELETE", "/v1/webhooks/" + id}, false},
		{[]string{"POST", "/v1/webhooks/" + id + "/rotate-key"}, false},
	}
	sb := startSandboxInProcess(t, sandbox.Options{})
	env := append([]string{"CARDTERM_SECRET_KEY=" + sandbox.DemoSecretKey}, alice...)
	for _, readOnly := range []bool{false, true} {
		for _, op := range operations {
			opArgs := op.args
			if strings.HasPrefix(opArgs[0], "/") && len(opArgs) > 1 {
				// As gh api, a field makes a POST: these are GETs with a
				// query, so the method is given (api METHOD PATH).
				opArgs = append([]string{"GET"}, opArgs...)
			}
			method, path := "GET", opArgs[0]
			if !strings.HasPrefix(path, "/") {
				method, path = opArgs[0], opArgs[1]
			}
			args := append(append([]string{"api"}, opArgs...), "--base-url", sb.URL, "--client-key", sandbox.DemoClientKey, "--environment", "sandbox")
			if readOnly {
				args = append(args, "--read-only")
			}
			before := len(sb.Server.Requests())
			_, errOut, code := cliRun(t, env, args...)
			sent := sb.Server.Requests()[before:]
			reached := false
			for _, r := range sent {
				reached = reached || r.Method == method && r.Path == path
			}
			switch {
			case (!readOnly || op.read) && !reached:
				t.Errorf("read-only %v: %s %s did not reach the gateway (exit %d, %s)", readOnly, method, path, code, errOut)
			case readOnly && !op.read && (len(sent) != 0 || code != exitUsage):
				t.Errorf("read-only: %s %s sent %v and exited %d (%s); want nothing sent, exit 2", method, path, sent, code, errOut)
			}
		}
	}
}
