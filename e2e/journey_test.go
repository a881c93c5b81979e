package e2e

import (
	"net"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sign out.
func signInAndCheckCard(t *testing.T, tm *tmuxTerm) {
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED", "alice@demo.test")

	tm.open("Card")
	tm.waitFor("ACTIVE", "4242", "ALICE MARTIN")

	tm.send("f")
	tm.waitFor("Freeze the card", "POST /v1/card/freeze", "declined")
	tm.send("f") // a second press while confirming sends nothing more
	tm.send("y")
	s := tm.waitFor("FROZEN")
	if strings.Contains(s, "Freeze the card") {
		t.Fatalf("dialog still open after confirming:\n%s", s)
	}

	tm.confirm("f", "Unfreeze the card", "authorizations resume")
	tm.waitFor("ACTIVE", "card unfrozen")

	tm.confirm("S", "Sign out?")
	tm.waitFor("Sign in to the Card and Wallet Gateway", "Signed out")
}

func TestEmbeddedSandboxJourney(t *testing.T) {
	tm := startTerm(t, nil)
	s := tm.waitFor("SANDBOX", "Sandbox demo accounts", "alice@demo.test")
	if !strings.Contains(s, "•••••••••") {
		t.Fatalf("the prefilled password should show masked:\n%s", s)
	}
	signInAndCheckCard(t, tm)
}

func TestSeparateSandboxThroughBaseURL(t *testing.T) {
	sb := startSandbox(t)
	addr := sb.addr
	for _, want := range []string{"http://" + addr, "ck_sandbox_acme", "alice@demo.test"} {
		if !strings.Contains(sb.described, want) {
			t.Fatalf("cardterm sandbox output lacks %q:\n%s", want, sb.described)
		}
	}

	// Nothing is asked at start; the first answer (a refused sign-in)
	// announces the sandbox: SANDBOX, no longer PRODUCTION, although it
	// is reached through --base-url without an environment.
	tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=sk_sandbox_acme"},
		"--base-url", "http://"+addr, "--client-key", "ck_sandbox_acme")
	tm.waitFor("Sign in to the Card and Wallet Gateway", "Not asked anything yet")
	tm.signInWithForm("alice@demo.test", "wrong-password")
	s := tm.waitFor("Sign-in refused", "It announced itself as the cardterm sandbox", "SANDBOX")
	if !strings.Contains(s, "alice@demo.test") || strings.Contains(s, "PRODUCTION") {
		t.Fatalf("after a failed sign-in: the username typed must stay, and an announced sandbox is no production:\n%s", s)
	}
	// Clear the wrong password and type the right one.
	tm.send("C-u")
	tm.typeText("demo-pass")
	signInAndCheckCard(t, tm)
}

func TestRejectedClientKeys(t *testing.T) {
	remote := newNotTheSandbox(t, "http://"+startSandbox(t).addr).url

	for _, tc := range []struct {
		name, key, want string
	}{
		{"unknown key", "ck_nobody", "does not recognise this client key"},
		// Caught before sending, naming the setting to change.
		{"missing key", "", "no client key is configured: set --client-key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=", "CARDTERM_CLIENT_KEY="},
				"--base-url", remote, "--client-key="+tc.key)
			tm.waitFor("Sign in to the Card and Wallet Gateway")
			tm.signInWithForm("alice@demo.test", "demo-pass")
			s := tm.waitFor(tc.want)
			if !strings.Contains(s, "alice@demo.test") {
				t.Fatalf("the username typed must stay:\n%s", s)
			}
		})
	}
}

func TestVersionAndHelp(t *testing.T) {
	out, err := binaryCommand(t, "--version").CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "cardterm ") {
		t.Fatalf("--version: %v %q", err, out)
	}
	out, err = binaryCommand(t, "--help").CombinedOutput()
	if err != nil {
		t.Fatalf("--help exits non-zero: %v", err)
	}
	for _, want := range []string{"--base-url", "--client-key", "--us", "--read-only", "CARDTERM_SECRET_KEY", "cardterm sandbox"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("--help lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "--secret-key") {
		t.Errorf("the secret key must never be a flag:\n%s", out)
	}
}

// TestEscCancelsSlowRequests runs against a gateway that takes 3 s to
// answer: the screen says it is working at once, and esc cancels.
func TestEscCancelsSlowRequests(t *testing.T) {
	addr := startSandbox(t, "--latency", "3s").addr

	tm := startTerm(t, []string{"CARDTERM_SECRET_KEY=sk_sandbox_acme"},
		"--base-url", "http://"+addr, "--client-key", "ck_sandbox_acme")
	tm.waitFor("Sign in to the Card and Wallet Gateway")
	tm.signInWithForm("alice@demo.test", "demo-pass")
	tm.waitFor("Signing in")
	tm.send("Escape")
	s := tm.waitFor("Sign-in cancelled")
	if !strings.Contains(s, "alice@demo.test") {
		t.Fatalf("the form must keep what was typed:\n%s", s)
	}

	tm.send("Enter")
	tm.waitFor("Alice Martin") // the slow sign-in and profile, uncancelled
	tm.open("Card")
	tm.waitFor("Loading card")
	tm.send("Escape")
	tm.waitFor("cancelled")
}

func TestSandboxStopsCleanlyOnSIGTERM(t *testing.T) {
	sb := startSandbox(t)
	if c, err := net.DialTimeout("tcp", sb.addr, 5*time.Second); err != nil {
		t.Fatalf("nothing listens on %s: %v", sb.addr, err)
	} else {
		_ = c.Close()
	}
	if err := sb.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-sb.done:
	case <-time.After(e2eWait):
		t.Fatalf("cardterm sandbox did not stop on SIGTERM:\n%s", sb.out.String())
	}
	if sb.err != nil {
		t.Fatalf("cardterm sandbox on SIGTERM: %v (want exit 0)\n%s", sb.err, sb.out.String())
	}
}
