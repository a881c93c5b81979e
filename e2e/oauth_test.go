package e2e

import (
	"net"
	"os/exec"
	"strings"
	"testing"
	"time"

	"cardterm/ui/uitest"
)

func startOAuth(t *testing.T, mode string) (tm *tmuxTerm, dir string) {
	t.Helper()
	env, dir := browserEnv(t, mode)
	tm = startTerm(t, env)
	tm.waitFor("Sign in to the Card and Wallet Gateway", "ctrl+o")
	tm.send("C-o")
	return tm, dir
}

func TestOAuthSignInThroughBrowser(t *testing.T) {
	tm, dir := startOAuth(t, "loopback")
	// No key press after ctrl+o: the browser comes back to the loopback.
	tm.waitFor("Alice", "VERIFIED", "alice@demo.test")
	cb := waitFile(t, dir, "callback")
	if !strings.HasPrefix(cb, "127.0.0.1:") || !strings.Contains(cb, "You can close this tab") {
		t.Fatalf("the browser's callback page:\n%s", cb)
	}
	// The listener is closed afterwards.
	host := strings.SplitN(cb, "\n", 2)[0]
	if c, err := net.DialTimeout("tcp", host, time.Second); err == nil {
		same := c.LocalAddr().String() == c.RemoteAddr().String()
		c.Close()
		if !same {
			t.Fatalf("the loopback listener %s is still open", host)
		}
	}
	// Signing out of an OAuth session revokes it.
	tm.confirm("S", "Sign out?")
	tm.waitFor("Sign in to the Card and Wallet Gateway", "revoked")
}

func TestOAuthPhoneCodeAndQRCode(t *testing.T) {
	tm, dir := startOAuth(t, "phone")
	tm.waitFor("Sign in with browser / phone", "Code shown on the phone")
	link := waitFile(t, dir, "url")
	code := waitFile(t, dir, "code")

	want := qrBits(t, link)
	screen := tm.waitFor("Waiting for the browser")
	if got := decodeScreenQR(screen); !uitest.SameBits(got, want) {
		t.Fatalf("the QR code on screen is not the sign-in link %s:\n%s", link, screen)
	}
	// It fits an 80x24 terminal too.
	if out, err := exec.Command("tmux", "-S", tm.socket, "resize-window", "-t", "0", "-x", "80", "-y", "24").CombinedOutput(); err != nil {
		t.Fatalf("resize: %v %s", err, out)
	}
	deadline := time.Now().Add(e2eWait)
	for {
		s := tm.screen()
		if len(strings.Split(strings.TrimRight(s, "\n"), "\n")) <= 24 && uitest.SameBits(decodeScreenQR(s), want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no whole QR code at 80x24:\n%s", s)
		}
		time.Sleep(50 * time.Millisecond)
	}
	tm.typeText(strings.ToLower(code))
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")
}

func TestOAuthCancelAndSecretKey(t *testing.T) {
	tm, _ := startOAuth(t, "phone")
	tm.waitFor("Code shown on the phone")
	tm.send("Escape")
	tm.waitFor("Sign-in with the browser cancelled", "Username")
	// the form still works
	tm.send("Enter")
	tm.waitFor("Alice", "VERIFIED")

	// a remote gateway without the secret key says what is missing
	remote := newNotTheSandbox(t, "http://"+startSandbox(t).addr).url
	tm2 := startTerm(t, []string{"CARDTERM_SECRET_KEY="}, "--base-url", remote, "--client-key", "ck_sandbox_acme")
	tm2.waitFor("Sign in to the Card and Wallet Gateway")
	tm2.send("C-o")
	tm2.waitFor("CARDTERM_SECRET_KEY")
}

func TestOAuthAgainstBaseURL(t *testing.T) {
	addr := startSandbox(t).addr
	env, _ := browserEnv(t, "loopback")
	tm := startTerm(t, append(env, "CARDTERM_SECRET_KEY=sk_sandbox_acme"), "--base-url", "http://"+addr, "--client-key", "ck_sandbox_acme")
	tm.waitFor("Sign in to the Card and Wallet Gateway", addr)
	tm.send("C-o")
	tm.waitFor("Alice", "VERIFIED")
}
